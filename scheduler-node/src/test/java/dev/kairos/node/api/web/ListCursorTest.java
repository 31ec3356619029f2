package dev.kairos.node.api.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;
import org.junit.jupiter.api.Test;

class ListCursorTest {

  @Test
  void aCursorNamesTheJobToContinueAfterAndTravelsInAUrlAsItIs() {
    String cursor = ListCursor.encode("nightly-report_2.v1");
    assertThat(cursor).matches("[A-Za-z0-9_-]+");
    assertThat(ListCursor.decode("cursor", cursor)).isEqualTo("nightly-report_2.v1");
    assertThat(ListCursor.encode(null)).isNull();
    assertThat(ListCursor.decode("cursor", null)).isNull();
    assertThat(ListCursor.decode("cursor", "")).isNull();
  }

  @Test
  void anythingTheListDidNotGiveIsAnInvalidFieldNamedAsAsked() {
    for (String bad :
        new String[] {
          "not a cursor",
          "%%%",
          "bmlnaHRseQ", /* "nightly": no version */
          "Mjpqb2I", /* "2:job": another version */
          "MTphIGI" /* "1:a b": no job id */
        }) {
      assertThatThrownBy(() -> ListCursor.decode("cursor", bad))
          .as(bad)
          .isInstanceOfSatisfying(
              ApiProblemException.class,
              e -> {
                assertThat(e.type()).isEqualTo(ProblemType.INVALID_FIELD);
                assertThat(e.errors().get(0).field()).isEqualTo("cursor");
              });
    }
  }
}
