package dev.kairos.node.api.security;

import dev.kairos.node.api.ApiProperties;
import dev.kairos.security.AppScope;
import dev.kairos.security.Role;
import dev.kairos.security.token.RuntimeToken;
import dev.kairos.security.token.TokenSecrets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.oauth2.core.OAuth2AuthenticatedPrincipal;
import org.springframework.security.oauth2.server.resource.introspection.BadOpaqueTokenException;
import org.springframework.security.oauth2.server.resource.introspection.OAuth2IntrospectionAuthenticatedPrincipal;
import org.springframework.security.oauth2.server.resource.introspection.OpaqueTokenIntrospector;

/**
 * Recognises the API tokens: the configured ones first (bootstrap and break-glass tokens, which
 * work while Redis is down), then those created at runtime ({@link
 * dev.kairos.security.token.RuntimeTokenStore}, one Redis read). Spring Security parses the {@code
 * Authorization: Bearer} header (RFC 6750) and hands the token here; it is hashed with SHA-256 and
 * compared with every configured hash in constant time (no early exit, so timing does not tell how
 * much of a hash matched or which entry). Neither tokens nor hashes are ever logged.
 */
public final class ApiTokenIntrospector implements OpaqueTokenIntrospector {

  /** Attribute of the authenticated principal holding the role. */
  public static final String ROLE_ATTRIBUTE = "role";

  /** Attribute naming where the token comes from: {@code config} or the runtime token's id. */
  public static final String SOURCE_ATTRIBUTE = "source";

  /** Attribute holding the token's apps ({@link AppScope#encode()}; empty: all apps). */
  public static final String APPS_ATTRIBUTE = "apps";

  private record Entry(String name, Role role, AppScope scope, byte[] sha256) {}

  private final List<Entry> entries;
  private final Function<String, Optional<RuntimeToken>> runtimeTokens;

  /**
   * @param runtimeTokens looks a presented token up among those created at runtime; it throws when
   *     it cannot tell (Redis down), and the request is then refused
   */
  public ApiTokenIntrospector(
      List<ApiProperties.Token> tokens, Function<String, Optional<RuntimeToken>> runtimeTokens) {
    this.runtimeTokens = runtimeTokens;
    this.entries =
        tokens.stream()
            .map(
                t ->
                    new Entry(
                        t.getName(),
                        t.getRole(),
                        AppScope.of(t.getApps()),
                        HexFormat.of().parseHex(t.getSha256().trim())))
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
    if (match != null) {
      return principal(match.name(), match.role(), match.scope(), "config");
    }
    Optional<RuntimeToken> runtime;
    try {
      runtime = runtimeTokens.apply(token);
    } catch (RuntimeException e) {
      // The token may be fine, but an unknown state is not an authenticated one: 401, and the
      // configured tokens (checked above) keep working while Redis is away.
      throw new BadOpaqueTokenException("the token could not be checked: Redis did not answer");
    }
    RuntimeToken found =
        runtime.orElseThrow(
            () -> new BadOpaqueTokenException("the bearer token is not a valid API token"));
    return principal(found.name(), found.role(), found.scope(), found.id());
  }

  private static OAuth2AuthenticatedPrincipal principal(
      String name, Role role, AppScope scope, String source) {
    return new OAuth2IntrospectionAuthenticatedPrincipal(
        name,
        Map.of(
            ROLE_ATTRIBUTE, role.name(), APPS_ATTRIBUTE, scope.encode(), SOURCE_ATTRIBUTE, source),
        AuthorityUtils.createAuthorityList(role.authority()));
  }

  static byte[] sha256(String token) {
    return TokenSecrets.sha256(token);
  }
}
