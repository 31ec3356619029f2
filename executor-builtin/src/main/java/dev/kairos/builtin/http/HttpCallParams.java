package dev.kairos.builtin.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kairos.builtin.JsonParams;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The params of an HTTP job, e.g. {@code {"method":"POST","url":"https://billing/api/close",
 * "headers":{"Authorization":"Bearer ..."},"body":{"day":"today"},"timeoutMs":5000,
 * "successStatus":["2xx",304]}}.
 *
 * @param method {@code GET} (default), {@code HEAD}, {@code POST}, {@code PUT}, {@code PATCH},
 *     {@code DELETE} or {@code OPTIONS}
 * @param url absolute {@code http} or {@code https} URL
 * @param headers request headers in the order given
 * @param body the request body, or null for none; a JSON value that is not a string is sent as JSON
 *     with {@code Content-Type: application/json} unless the headers name another
 * @param timeout how long the whole call may take, connection to the last byte read
 * @param success the statuses that end the run as SUCCESS (default {@code 2xx})
 * @param followRedirects whether 3xx answers are followed (default false: a 3xx is the answer)
 */
public record HttpCallParams(
    String method,
    URI url,
    Map<String, String> headers,
    String body,
    Duration timeout,
    SuccessStatuses success,
    boolean followRedirects) {

  public static final Set<String> FIELDS =
      Set.of("method", "url", "headers", "body", "timeoutMs", "successStatus", "followRedirects");

  static final Set<String> METHODS =
      new LinkedHashSet<>(List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"));

  /** RFC 9110 token: what a header name may be made of. */
  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  /**
   * @throws dev.kairos.builtin.InvalidParamsException naming the field that is wrong
   */
  public static HttpCallParams parse(String handler, String params, Duration defaultTimeout) {
    JsonParams json = JsonParams.parse(handler, params, FIELDS);
    String method = json.optionalText("method");
    method = method == null ? "GET" : method.trim().toUpperCase(Locale.ROOT);
    if (!METHODS.contains(method)) {
      throw json.invalid("method", "must be one of " + METHODS + ", was \"" + method + "\"");
    }
    URI url = url(json);
    Map<String, String> headers = headers(json);
    String body = null;
    JsonNode bodyNode = json.node("body");
    if (bodyNode != null) {
      if (bodyNode.isTextual()) {
        body = bodyNode.textValue();
      } else {
        body = bodyNode.toString();
        if (headers.keySet().stream().noneMatch(n -> n.equalsIgnoreCase("Content-Type"))) {
          headers.put("Content-Type", "application/json");
        }
      }
    }
    Duration timeout =
        Duration.ofMillis(json.positiveMillis("timeoutMs", defaultTimeout.toMillis()));
    SuccessStatuses success = success(json);
    boolean follow = json.bool("followRedirects", false);
    return new HttpCallParams(
        method, url, Collections.unmodifiableMap(headers), body, timeout, success, follow);
  }

  private static URI url(JsonParams json) {
    String text = json.requiredText("url");
    URI url;
    try {
      url = new URI(text.trim());
    } catch (URISyntaxException e) {
      throw json.invalid("url", "is not a URL: " + e.getReason());
    }
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw json.invalid("url", "must be an absolute http:// or https:// URL");
    }
    if (url.getHost() == null || url.getHost().isEmpty()) {
      throw json.invalid("url", "has no host");
    }
    return url;
  }

  private static Map<String, String> headers(JsonParams json) {
    Map<String, String> headers = new LinkedHashMap<>();
    JsonNode node = json.node("headers");
    if (node == null) {
      return headers;
    }
    if (!node.isObject()) {
      throw json.invalid("headers", "must be an object of name → value");
    }
    for (var fields = node.fields(); fields.hasNext(); ) {
      var field = fields.next();
      String name = field.getKey();
      JsonNode value = field.getValue();
      if (!TOKEN.matcher(name).matches()) {
        throw json.invalid("headers", "\"" + name + "\" is not a valid header name");
      }
      if (!value.isValueNode() || value.isNull()) {
        throw json.invalid("headers", "the value of " + name + " must be a string");
      }
      String text = value.asText();
      if (text.indexOf('\r') >= 0 || text.indexOf('\n') >= 0) {
        throw json.invalid("headers", "the value of " + name + " contains a line break");
      }
      headers.put(name, text);
    }
    return headers;
  }

  private static SuccessStatuses success(JsonParams json) {
    JsonNode node = json.node("successStatus");
    if (node == null) {
      return SuccessStatuses.DEFAULT;
    }
    List<String> items = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(item -> items.add(item.asText()));
      for (JsonNode item : node) {
        if (!item.isTextual() && !item.isIntegralNumber()) {
          throw json.invalid("successStatus", "items must be statuses or ranges, was " + item);
        }
      }
    } else if (node.isTextual() || node.isIntegralNumber()) {
      items.add(node.asText());
    } else {
      throw json.invalid("successStatus", "must be a status, a range or a list of them");
    }
    try {
      return SuccessStatuses.parse(items);
    } catch (IllegalArgumentException e) {
      throw json.invalid("successStatus", e.getMessage());
    }
  }
}
