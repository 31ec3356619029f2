package dev.kairos.node.api.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class VersionsTest {

  @Test
  void anETagAndTheBareNumberNameTheVersion() {
    assertThat(Versions.ifMatch(Versions.etag(7))).hasValue(7);
    assertThat(Versions.ifMatch(" 7 ")).hasValue(7);
    assertThat(Versions.ifMatch(null)).isEqualTo(OptionalLong.empty());
    assertThat(Versions.ifMatch("  ")).isEqualTo(OptionalLong.empty());
  }

  @Test
  void aWeakTagNeverMatches() {
    // If-Match compares strongly (RFC 9110 section 13.1.1), so W/"7" is refused with 412.
    assertThatThrownBy(() -> Versions.ifMatch("W/\"7\""))
        .isInstanceOfSatisfying(
            ApiProblemException.class,
            e -> {
              assertThat(e.type()).isEqualTo(ProblemType.PRECONDITION_FAILED);
              assertThat(e.errors().get(0).field()).isEqualTo("If-Match");
            });
  }

  @Test
  void anythingElseIsAnInvalidIfMatch() {
    for (String bad : new String[] {"*", "\"abc\"", "\"0\"", "-1", "\"7", "\"1\", \"2\""}) {
      assertThatThrownBy(() -> Versions.ifMatch(bad))
          .as(bad)
          .isInstanceOfSatisfying(
              ApiProblemException.class,
              e -> {
                assertThat(e.type()).isEqualTo(ProblemType.INVALID_FIELD);
                assertThat(e.errors().get(0).field()).isEqualTo("If-Match");
              });
    }
  }
}
