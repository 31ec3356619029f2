package dev.kairos.security.token;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.validation.ValidationProblem;
import dev.kairos.security.Access;
import dev.kairos.security.AppScope;
import dev.kairos.security.Role;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenRequestTest {

  private static final long NOW = 1_800_000_000_000L;
  private static final long IN_A_DAY = NOW + Duration.ofDays(1).toMillis();

  @Test
  void aWellFormedRequestHasNoProblems() {
    assertThat(
            new TokenRequest("nightly-ci", "team-a@example.com", Role.VIEWER, List.of(), IN_A_DAY)
                .problems(NOW))
        .isEmpty();
  }

  @Test
  void eachBadFieldIsNamed() {
    assertThat(new TokenRequest("", " ", null, List.of(), NOW - 1).problems(NOW))
        .extracting(ValidationProblem::field)
        .containsExactly("name", "owner", "role", "expiresAt");
    assertThat(new TokenRequest("has space", "o", Role.ADMIN, List.of(), IN_A_DAY).problems(NOW))
        .extracting(ValidationProblem::field)
        .containsExactly("name");
    assertThat(new TokenRequest("n", "line\nbreak", Role.ADMIN, List.of(), IN_A_DAY).problems(NOW))
        .extracting(ValidationProblem::field)
        .containsExactly("owner");
  }

  @Test
  void noExpiryMeansTheDefaultLifetimeFromTheInstantOfCreation() {
    TokenRequest open = new TokenRequest("n", "o", Role.VIEWER, List.of(), null);
    assertThat(open.problems(NOW)).isEmpty();
    assertThat(open.expiringFrom(NOW).expiresMs())
        .isEqualTo(NOW + TokenRequest.DEFAULT_LIFETIME.toMillis());
    assertThat(new TokenRequest("n", "o", Role.VIEWER, List.of(), IN_A_DAY).expiringFrom(NOW))
        .extracting(TokenRequest::expiresMs)
        .isEqualTo(IN_A_DAY);
  }

  @Test
  void theExpiryMustBeAheadAndWithinTheMaximumLifetime() {
    assertThat(new TokenRequest("n", "o", Role.ADMIN, List.of(), NOW).problems(NOW))
        .extracting(ValidationProblem::field)
        .containsExactly("expiresAt");
    long max = NOW + TokenRequest.MAX_LIFETIME.toMillis();
    assertThat(new TokenRequest("n", "o", Role.ADMIN, List.of(), max).problems(NOW)).isEmpty();
    assertThat(new TokenRequest("n", "o", Role.ADMIN, List.of(), max + 1).problems(NOW))
        .extracting(ValidationProblem::message)
        .containsExactly("must be at most 730 days from now");
  }

  @Test
  void secretsAreRandomPrefixedAndHashedToHex() {
    String a = TokenSecrets.newSecret();
    String b = TokenSecrets.newSecret();
    assertThat(a).startsWith(TokenSecrets.PREFIX).hasSize(TokenSecrets.PREFIX.length() + 43);
    assertThat(a).isNotEqualTo(b);
    assertThat(TokenSecrets.sha256Hex("abc"))
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assertThat(
            new IssuedToken(
                    new RuntimeToken("tok_1", "n", "o", Role.ADMIN, List.of(), 0, "me", 1), a)
                .toString())
        .doesNotContain(a);
  }

  @Test
  void onlyOperatorsAndViewersNameAppsAndAnOperatorMust() {
    assertThat(
            new TokenRequest("n", "o", Role.OPERATOR, List.of("pay", "ledger"), IN_A_DAY)
                .problems(NOW))
        .isEmpty();
    assertThat(new TokenRequest("n", "o", Role.VIEWER, List.of("pay"), IN_A_DAY).problems(NOW))
        .isEmpty();
    assertThat(new TokenRequest("n", "o", Role.VIEWER, List.of(), IN_A_DAY).problems(NOW))
        .as("a viewer of all apps")
        .isEmpty();
    for (TokenRequest wrong :
        List.of(
            new TokenRequest("n", "o", Role.OPERATOR, List.of(), IN_A_DAY),
            new TokenRequest("n", "o", Role.ADMIN, List.of("pay"), IN_A_DAY),
            new TokenRequest("n", "o", Role.METRICS, List.of("pay"), IN_A_DAY),
            new TokenRequest("n", "o", Role.VIEWER, List.of("pay,ledger"), IN_A_DAY))) {
      assertThat(wrong.problems(NOW))
          .as(wrong.toString())
          .extracting(ValidationProblem::field)
          .containsExactly("apps");
    }
  }

  @Test
  void aScopeAllowsItsAppsAndAnEmptyOneAllowsAll() {
    AppScope pay = AppScope.of(List.of("pay", "ledger"));
    assertThat(pay.allows("pay")).isTrue();
    assertThat(pay.allows("hr")).isFalse();
    assertThat(pay.allows(null)).isFalse();
    assertThat(AppScope.decode(pay.encode())).isEqualTo(pay);
    assertThat(pay.encode()).isEqualTo("ledger,pay");
    assertThat(AppScope.decode("").isAll()).isTrue();
    assertThat(AppScope.all().allows("anything")).isTrue();

    Access operator = new Access(Role.OPERATOR, pay);
    assertThat(operator.canWrite("pay")).isTrue();
    assertThat(operator.canWrite("hr")).isFalse();
    assertThat(operator.isAdmin()).isFalse();
    Access viewer = new Access(Role.VIEWER, AppScope.all());
    assertThat(viewer.canRead("hr")).isTrue();
    assertThat(viewer.canWrite("hr")).isFalse();
    assertThat(new Access(Role.METRICS, AppScope.all()).canRead("hr")).isFalse();
  }
}
