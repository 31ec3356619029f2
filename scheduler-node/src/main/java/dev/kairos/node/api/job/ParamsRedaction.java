package dev.kairos.node.api.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.kairos.core.log.SecretNames;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.secret.SecretParamsCipher;
import dev.kairos.security.Role;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * What a reader who may not write jobs sees of their params: job params carry credentials (an HTTP
 * job's {@code Authorization} header, a token in a URL, a script), and reading a job must not hand
 * them out. For a caller without {@link Role#ADMIN}, in params that are a JSON object, every field
 * whose name says it holds a secret ({@link SecretNames}, at any depth), the user-info of URLs, and
 * a script job's {@code script} are replaced by {@value #MASK}. Params that are not JSON are shown
 * as written, except a script job's, which are masked whole. Writers see them unmasked: they may
 * replace them anyway.
 */
public final class ParamsRedaction {

  public static final String MASK = SecretNames.MASK;

  private static final String SCRIPT_HANDLER = "kairos.script";

  private static final Pattern URL_USER_INFO =
      Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]*://)[^/@\\s]+@");

  private static final ObjectMapper JSON = new ObjectMapper();

  private ParamsRedaction() {}

  /** Whether the caller of this request may see params unmasked (it may write jobs). */
  public static boolean callerMayWrite() {
    Authentication auth = SecurityContextHolder.getContext().getAuthentication();
    if (auth == null) {
      return true; // no security chain (the API without tokens: the single-node demo's opt-out)
    }
    // An OPERATOR reads only its own apps' jobs, whose params it may replace anyway.
    return auth.getAuthorities().stream()
        .anyMatch(
            a ->
                a.getAuthority().equals(Role.ADMIN.authority())
                    || a.getAuthority().equals(Role.OPERATOR.authority()));
  }

  /**
   * The params as this request's caller may see them: a writer's with their sealed secrets opened
   * (where this node holds the key), everyone else's masked.
   */
  public static String forCaller(JobDefinition job, SecretParamsCipher secrets) {
    return callerMayWrite()
        ? secrets.openIfPossible(job.id(), job.params())
        : masked(job.handler(), job.params());
  }

  /** The params with their secrets masked. */
  public static String masked(String handler, String params) {
    if (params == null || params.isEmpty()) {
      return params;
    }
    boolean script = SCRIPT_HANDLER.equals(handler);
    JsonNode root;
    try {
      root = JSON.readTree(params);
    } catch (JsonProcessingException e) {
      return script ? MASK : params;
    }
    if (root == null || !root.isObject()) {
      return script ? MASK : params;
    }
    mask((ObjectNode) root);
    if (script && root.has("script")) {
      ((ObjectNode) root).put("script", MASK);
    }
    return root.toString();
  }

  private static void mask(ObjectNode object) {
    Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      JsonNode value = field.getValue();
      if (SecretNames.isSecret(field.getKey())) {
        field.setValue(TextNode.valueOf(MASK));
      } else if (value.isObject()) {
        mask((ObjectNode) value);
      } else if (value.isArray()) {
        value.forEach(
            element -> {
              if (element.isObject()) {
                mask((ObjectNode) element);
              }
            });
      } else if (value.isTextual()) {
        String text = value.textValue();
        String withoutUserInfo = URL_USER_INFO.matcher(text).replaceAll("$1" + MASK + "@");
        if (!withoutUserInfo.equals(text)) {
          field.setValue(TextNode.valueOf(withoutUserInfo));
        }
      }
    }
  }
}
