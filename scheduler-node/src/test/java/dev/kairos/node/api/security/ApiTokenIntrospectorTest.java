package dev.kairos.node.api.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.node.api.ApiProperties;
import dev.kairos.security.Role;
import dev.kairos.security.token.RuntimeToken;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.oauth2.core.OAuth2AuthenticatedPrincipal;
import org.springframework.security.oauth2.server.resource.introspection.BadOpaqueTokenException;

class ApiTokenIntrospectorTest {

  private static ApiProperties.Token token(String name, Role role, String secret) {
    ApiProperties.Token t = new ApiProperties.Token();
    t.setName(name);
    t.setRole(role);
    t.setSha256(HexFormat.of().formatHex(ApiTokenIntrospector.sha256(secret)));
    return t;
  }

  private static final Function<String, Optional<RuntimeToken>> NO_RUNTIME_TOKENS =
      secret -> Optional.empty();

  private final ApiTokenIntrospector tokens =
      new ApiTokenIntrospector(
          List.of(token("ci", Role.ADMIN, "s3cret-a"), token("dash", Role.VIEWER, "s3cret-b")),
          NO_RUNTIME_TOKENS);

  @Test
  void aConfiguredTokenAuthenticatesWithItsNameAndRole() {
    OAuth2AuthenticatedPrincipal admin = tokens.introspect("s3cret-a");
    assertThat(admin.getName()).isEqualTo("ci");
    assertThat(admin.getAuthorities())
        .extracting(GrantedAuthority::getAuthority)
        .containsExactly("ROLE_ADMIN");
    assertThat(tokens.introspect("s3cret-b").getAuthorities())
        .extracting(GrantedAuthority::getAuthority)
        .containsExactly("ROLE_VIEWER");
  }

  @Test
  void anyOtherTokenIsRejectedIncludingTheHashItself() {
    String hash = HexFormat.of().formatHex(ApiTokenIntrospector.sha256("s3cret-a"));
    for (String wrong : List.of("s3cret", "s3cret-a ", "S3CRET-A", hash, "")) {
      assertThatThrownBy(() -> tokens.introspect(wrong))
          .as(wrong)
          .isInstanceOf(BadOpaqueTokenException.class);
    }
  }

  @Test
  void upperCaseHexHashesAreAccepted() {
    ApiProperties.Token t = token("upper", Role.VIEWER, "tok");
    t.setSha256(t.getSha256().toUpperCase());
    assertThat(new ApiTokenIntrospector(List.of(t), NO_RUNTIME_TOKENS).introspect("tok").getName())
        .isEqualTo("upper");
  }

  @Test
  void noTokensMeansNothingAuthenticates() {
    assertThatThrownBy(
            () -> new ApiTokenIntrospector(List.of(), NO_RUNTIME_TOKENS).introspect("anything"))
        .isInstanceOf(BadOpaqueTokenException.class);
  }

  @Test
  void aRuntimeTokenAuthenticatesWithItsNameRoleAndIdWhenNoConfiguredOneMatches() {
    RuntimeToken dash =
        new RuntimeToken("tok_01", "grafana", "ops", Role.METRICS, List.of(), 0, "ci", 1);
    ApiTokenIntrospector both =
        new ApiTokenIntrospector(
            List.of(token("ci", Role.ADMIN, "s3cret-a")),
            secret -> secret.equals("kairos_x") ? Optional.of(dash) : Optional.empty());

    OAuth2AuthenticatedPrincipal principal = both.introspect("kairos_x");

    assertThat(principal.getName()).isEqualTo("grafana");
    assertThat(principal.getAuthorities())
        .extracting(GrantedAuthority::getAuthority)
        .containsExactly("ROLE_METRICS");
    assertThat((String) principal.getAttribute(ApiTokenIntrospector.SOURCE_ATTRIBUTE))
        .isEqualTo("tok_01");
    assertThat((String) both.introspect("s3cret-a").getAttribute("source")).isEqualTo("config");
    assertThatThrownBy(() -> both.introspect("kairos_y"))
        .isInstanceOf(BadOpaqueTokenException.class);
  }

  @Test
  void aStoreThatCannotAnswerRefusesRuntimeTokensButNotConfiguredOnes() {
    ApiTokenIntrospector storeDown =
        new ApiTokenIntrospector(
            List.of(token("ci", Role.ADMIN, "s3cret-a")),
            secret -> {
              throw new IllegalStateException("Redis down");
            });

    assertThat(storeDown.introspect("s3cret-a").getName()).isEqualTo("ci");
    assertThatThrownBy(() -> storeDown.introspect("kairos_x"))
        .isInstanceOf(BadOpaqueTokenException.class)
        .hasMessageContaining("Redis did not answer");
  }
}
