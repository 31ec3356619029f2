package dev.kairos.security.token;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.validation.ValidationProblem;
import dev.kairos.security.Role;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TokenRequestTest {

  private static final long NOW = 1_800_000_000_000L;
  private static final long IN_A_DAY = NOW + Duration.ofDays(1).toMillis();

  @Test
  void aWellFormedRequestHasNoProblems() {
    assertThat(
            new TokenRequest("nightly-ci", "team-a@example.com", Role.VIEWER, IN_A_DAY)
                .problems(NOW))
        .isEmpty();
  }

  @Test
  void eachBadFieldIsNamed() {
    assertThat(new TokenRequest("", " ", null, null).problems(NOW))
        .extracting(ValidationProblem::field)
        .containsExactly("name", "owner", "role", "expiresAt");
    assertThat(new TokenRequest("has space", "o", Role.ADMIN, IN_A_DAY).problems(NOW))
        .extracting(ValidationProblem::field)
        .containsExactly("name");
    assertThat(new TokenRequest("n", "line\nbreak", Role.ADMIN, IN_A_DAY).problems(NOW))
        .extracting(ValidationProblem::field)
        .containsExactly("owner");
  }

  @Test
  void theExpiryMustBeAheadAndWithinTheMaximumLifetime() {
    assertThat(new TokenRequest("n", "o", Role.ADMIN, NOW).problems(NOW))
        .extracting(ValidationProblem::field)
        .containsExactly("expiresAt");
    long max = NOW + TokenRequest.MAX_LIFETIME.toMillis();
    assertThat(new TokenRequest("n", "o", Role.ADMIN, max).problems(NOW)).isEmpty();
    assertThat(new TokenRequest("n", "o", Role.ADMIN, max + 1).problems(NOW))
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
            new IssuedToken(new RuntimeToken("tok_1", "n", "o", Role.ADMIN, 0, "me", 1), a)
                .toString())
        .doesNotContain(a);
  }
}
