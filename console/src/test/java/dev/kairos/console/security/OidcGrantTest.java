package dev.kairos.console.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class OidcGrantTest {

  private static final String P = "kairos:";

  @Test
  void theHighestGrantWinsAndItsAppsCome() {
    assertThat(OidcGrant.of(List.of("kairos:viewer:pay", "kairos:admin"), P))
        .contains(new OidcGrant("ADMIN", List.of()));
    assertThat(
            OidcGrant.of(
                List.of("kairos:operator:pay", "kairos:viewer:hr", "kairos:operator:ledger"), P))
        .contains(new OidcGrant("OPERATOR", List.of("ledger", "pay")));
    assertThat(OidcGrant.of(List.of("kairos:viewer:hr", "kairos:viewer"), P))
        .contains(new OidcGrant("VIEWER", List.of()));
    assertThat(OidcGrant.of(List.of("kairos:viewer:hr"), P))
        .contains(new OidcGrant("VIEWER", List.of("hr")));
  }

  @Test
  void otherGroupsAndMalformedOnesGrantNothing() {
    assertThat(OidcGrant.of(List.of("staff", "admin", "kairos:operator:", "kairos:root"), P))
        .isEmpty();
    assertThat(OidcGrant.of(null, P)).isEmpty();
    assertThat(OidcGrant.of(List.of("team/kairos-admin"), "team/kairos-"))
        .contains(new OidcGrant("ADMIN", List.of()));
  }
}
