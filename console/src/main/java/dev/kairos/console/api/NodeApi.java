package dev.kairos.console.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.console.security.ConsoleUser;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.client.RestClient;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * The console's way into the node: the node's own admin API, called over loopback on the connector
 * the console's request arrived on, with the signed-in user's token. So every console action is
 * exactly an API call: the same validation (field errors come back as problem+json), the same role
 * check (a VIEWER's write is refused by the API too, not only hidden), the same audit log line with
 * the token's name. It costs one loopback request per read or write, which a console can afford.
 */
public final class NodeApi {

  /**
   * How long a download may take once its answer started: an export of a million jobs streams for a
   * minute or so, far beyond the timeout of an ordinary call.
   */
  static final Duration DOWNLOAD_TIMEOUT = Duration.ofMinutes(30);

  /** Receives the body of a download as it arrives. */
  @FunctionalInterface
  public interface BodySink {
    void accept(InputStream body) throws IOException;
  }

  private final RestClient http;
  private final RestClient downloads;
  private final ObjectMapper json;
  private final String baseUrl;

  /**
   * @param baseUrl the API's base URL; empty means the connector the current request arrived on
   */
  public NodeApi(ObjectMapper json, Duration timeout, String baseUrl) {
    HttpClient client = HttpClient.newBuilder().connectTimeout(timeout).build();
    JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(client);
    requests.setReadTimeout(timeout);
    this.http = RestClient.builder().requestFactory(requests).build();
    JdkClientHttpRequestFactory longRequests = new JdkClientHttpRequestFactory(client);
    longRequests.setReadTimeout(DOWNLOAD_TIMEOUT);
    this.downloads = RestClient.builder().requestFactory(longRequests).build();
    this.json = json;
    this.baseUrl = baseUrl == null ? "" : baseUrl.replaceAll("/+$", "");
  }

  public ApiResponse get(String path) {
    return call(HttpMethod.GET, path, null);
  }

  /**
   * A GET whose answer may be large (an export): on success {@code sink} reads the body as it
   * arrives, so it is never held whole, and the answer carries only the status; otherwise the
   * problem is read as for {@link #get}.
   */
  public ApiResponse download(String path, BodySink sink) {
    return downloads
        .get()
        .uri(URI.create(base() + path))
        .header(HttpHeaders.AUTHORIZATION, "Bearer " + currentUser().token())
        .accept(MediaType.APPLICATION_JSON, MediaType.APPLICATION_PROBLEM_JSON)
        .exchange(
            (req, res) -> {
              int status = res.getStatusCode().value();
              try (InputStream in = res.getBody()) {
                if (status >= 200 && status < 300) {
                  sink.accept(in);
                  return ApiResponse.of(status, null);
                }
                byte[] bytes = in.readAllBytes();
                return ApiResponse.of(status, bytes.length == 0 ? null : parse(bytes));
              }
            });
  }

  public ApiResponse post(String path, Object body) {
    return call(HttpMethod.POST, path, body);
  }

  public ApiResponse put(String path, Object body, long version) {
    return exchange(HttpMethod.PUT, path, body, "\"" + version + "\"");
  }

  public ApiResponse delete(String path) {
    return call(HttpMethod.DELETE, path, null);
  }

  private ApiResponse call(HttpMethod method, String path, Object body) {
    return exchange(method, path, body, null);
  }

  private ApiResponse exchange(HttpMethod method, String path, Object body, String ifMatch) {
    RestClient.RequestBodySpec request =
        http.method(method)
            .uri(URI.create(base() + path))
            .header(HttpHeaders.AUTHORIZATION, "Bearer " + currentUser().token())
            .accept(MediaType.APPLICATION_JSON, MediaType.APPLICATION_PROBLEM_JSON);
    if (ifMatch != null) {
      request.header(HttpHeaders.IF_MATCH, ifMatch);
    }
    if (body != null) {
      request.contentType(MediaType.APPLICATION_JSON).body(body);
    }
    return request.exchange(
        (req, res) -> {
          int status = res.getStatusCode().value();
          try (InputStream in = res.getBody()) {
            byte[] bytes = in.readAllBytes();
            Object parsed = bytes.length == 0 ? null : parse(bytes);
            return ApiResponse.of(status, parsed);
          }
        });
  }

  private Object parse(byte[] bytes) {
    try {
      return json.readValue(bytes, Object.class);
    } catch (IOException e) {
      // Not JSON (a proxy's error page): the status alone tells the story.
      return null;
    }
  }

  private String base() {
    if (!baseUrl.isEmpty()) {
      return baseUrl;
    }
    HttpServletRequest request =
        ((ServletRequestAttributes) RequestContextHolder.currentRequestAttributes()).getRequest();
    String host = request.getLocalAddr();
    if (host.contains(":")) {
      host = "[" + host + "]"; // IPv6 literal
    }
    return "http://" + host + ":" + request.getLocalPort() + request.getContextPath();
  }

  private static ConsoleUser currentUser() {
    Authentication auth = SecurityContextHolder.getContext().getAuthentication();
    if (auth != null && auth.getPrincipal() instanceof ConsoleUser user) {
      return user;
    }
    throw new IllegalStateException("no console user signed in on this request");
  }
}
