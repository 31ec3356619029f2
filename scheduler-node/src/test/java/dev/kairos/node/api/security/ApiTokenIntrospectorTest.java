package dev.kairos.node.api.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.node.api.ApiProperties;
import dev.kairos.node.api.ApiRole;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.oauth2.core.OAuth2AuthenticatedPrincipal;
import org.springframework.security.oauth2.server.resource.introspection.BadOpaqueTokenException;

class ApiTokenIntrospectorTest {

  private static ApiProperties.Token token(String name, ApiRole role, String secret) {
    ApiProperties.Token t = new ApiProperties.Token();
    t.setName(name);
    t.setRole(role);
    t.setSha256(HexFormat.of().formatHex(ApiTokenIntrospector.sha256(secret)));
    return t;
  }

  private final ApiTokenIntrospector tokens =
      new ApiTokenIntrospector(
          List.of(
              token("ci", ApiRole.ADMIN, "s3cret-a"), token("dash", ApiRole.VIEWER, "s3cret-b")));

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
    ApiProperties.Token t = token("upper", ApiRole.VIEWER, "tok");
    t.setSha256(t.getSha256().toUpperCase());
    assertThat(new ApiTokenIntrospector(List.of(t)).introspect("tok").getName()).isEqualTo("upper");
  }

  @Test
  void noTokensMeansNothingAuthenticates() {
    assertThatThrownBy(() -> new ApiTokenIntrospector(List.of()).introspect("anything"))
        .isInstanceOf(BadOpaqueTokenException.class);
  }
}
