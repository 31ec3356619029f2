package dev.kairos.console.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.oauth2.server.resource.introspection.BadOpaqueTokenException;
import org.springframework.security.oauth2.server.resource.introspection.OAuth2IntrospectionAuthenticatedPrincipal;

class TokenAuthenticationProviderTest {

  private final TokenAuthenticationProvider provider =
      new TokenAuthenticationProvider(
          token ->
              switch (token) {
                case "a" -> principal("ops", "ROLE_ADMIN");
                case "v" -> principal("dashboard", "ROLE_VIEWER");
                case "o" -> principal("team-a", "ROLE_OPERATOR");
                case "m" -> principal("prometheus", "ROLE_METRICS");
                case "x" -> principal("other", "ROLE_SOMETHING");
                default -> throw new BadOpaqueTokenException("unknown");
              });

  @Test
  void anAdminTokenSignsInAsAdminAndTheTokenStaysOutOfToString() {
    Authentication auth = provider.authenticate(attempt(" a "));
    ConsoleUser user = (ConsoleUser) auth.getPrincipal();
    assertThat(user.admin()).isTrue();
    assertThat(user.token()).isEqualTo("a");
    assertThat(auth.getName()).isEqualTo("ops");
    assertThat(user.toString()).isEqualTo("ConsoleUser[ops, ADMIN]");
    assertThat(auth.getCredentials()).isNull();
  }

  @Test
  void aViewerTokenIsNoAdmin() {
    ConsoleUser user = (ConsoleUser) provider.authenticate(attempt("v")).getPrincipal();
    assertThat(user.admin()).isFalse();
    assertThat(user.mayWrite()).isFalse();
    assertThat(user.role()).isEqualTo("VIEWER");
  }

  @Test
  void anOperatorTokenMayWriteButIsNoAdminAndAMetricsTokenCannotSignIn() {
    ConsoleUser user = (ConsoleUser) provider.authenticate(attempt("o")).getPrincipal();
    assertThat(user.mayWrite()).isTrue();
    assertThat(user.admin()).isFalse();
    assertThat(user.toString()).isEqualTo("ConsoleUser[team-a, OPERATOR]");
    assertThatThrownBy(() -> provider.authenticate(attempt("m")))
        .isInstanceOf(BadCredentialsException.class)
        .hasMessageContaining("no console role");
  }

  @Test
  void unknownEmptyAndRolelessTokensAreRefusedWithoutNamingTheToken() {
    assertThatThrownBy(() -> provider.authenticate(attempt("secret-guess")))
        .isInstanceOf(BadCredentialsException.class)
        .message()
        .doesNotContain("secret-guess");
    assertThatThrownBy(() -> provider.authenticate(attempt("  ")))
        .isInstanceOf(BadCredentialsException.class);
    assertThatThrownBy(() -> provider.authenticate(attempt("x")))
        .isInstanceOf(BadCredentialsException.class)
        .hasMessageContaining("no console role");
  }

  private static UsernamePasswordAuthenticationToken attempt(String token) {
    return UsernamePasswordAuthenticationToken.unauthenticated("", token);
  }

  private static OAuth2IntrospectionAuthenticatedPrincipal principal(String name, String role) {
    return new OAuth2IntrospectionAuthenticatedPrincipal(
        name, Map.of("role", role), AuthorityUtils.createAuthorityList(role));
  }
}
