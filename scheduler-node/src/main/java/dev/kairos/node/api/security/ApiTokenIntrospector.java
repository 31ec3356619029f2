package dev.kairos.node.api.security;

import dev.kairos.node.api.ApiProperties;
import dev.kairos.node.api.ApiRole;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.oauth2.core.OAuth2AuthenticatedPrincipal;
import org.springframework.security.oauth2.server.resource.introspection.BadOpaqueTokenException;
import org.springframework.security.oauth2.server.resource.introspection.OAuth2IntrospectionAuthenticatedPrincipal;
import org.springframework.security.oauth2.server.resource.introspection.OpaqueTokenIntrospector;

/**
 * Recognises the configured API tokens. Spring Security parses the {@code Authorization: Bearer}
 * header (RFC 6750) and hands the token here; it is hashed with SHA-256 and compared with every
 * configured hash in constant time (no early exit, so timing does not tell how much of a hash
 * matched or which entry). Neither tokens nor hashes are ever logged.
 */
public final class ApiTokenIntrospector implements OpaqueTokenIntrospector {

  /** Attribute of the authenticated principal holding the role. */
  public static final String ROLE_ATTRIBUTE = "role";

  private record Entry(String name, ApiRole role, byte[] sha256) {}

  private final List<Entry> entries;

  public ApiTokenIntrospector(List<ApiProperties.Token> tokens) {
    this.entries =
        tokens.stream()
            .map(
                t ->
                    new Entry(
                        t.getName(), t.getRole(), HexFormat.of().parseHex(t.getSha256().trim())))
            .toList();
  }

  public int size() {
    return entries.size();
  }

  @Override
  public OAuth2AuthenticatedPrincipal introspect(String token) {
    byte[] presented = sha256(token);
    Entry match = null;
    for (Entry entry : entries) {
      if (MessageDigest.isEqual(entry.sha256(), presented) && match == null) {
        match = entry;
      }
    }
    if (match == null) {
      throw new BadOpaqueTokenException("the bearer token is not one of the configured tokens");
    }
    return new OAuth2IntrospectionAuthenticatedPrincipal(
        match.name(),
        Map.of(ROLE_ATTRIBUTE, match.role().name()),
        AuthorityUtils.createAuthorityList(match.role().authority()));
  }

  static byte[] sha256(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
