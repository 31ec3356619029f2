package dev.kairos.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AuditDiffTest {

  private static final String BEFORE =
      "{\"id\":\"a\",\"schedule\":\"0 0 3 * * *\",\"params\":\"x\",\"enabled\":true,"
          + "\"retryBackoff\":{\"kind\":\"FIXED\",\"initialDelayMs\":1000},\"childJobIds\":[]}";

  @Test
  void namesEachChangedFieldWithItsOldAndNewValue() {
    String after = BEFORE.replace("0 0 3 * * *", "0 30 4 * * *").replace("\"x\"", "\"y\"");
    List<AuditDiff.FieldChange> diff = AuditDiff.of(BEFORE, after);
    assertThat(AuditDiff.fieldNames(diff)).containsExactly("schedule", "params");
    assertThat(diff.get(0).before().asText()).isEqualTo("0 0 3 * * *");
    assertThat(diff.get(0).after().asText()).isEqualTo("0 30 4 * * *");
  }

  @Test
  void anUnchangedDefinitionHasNoDiff() {
    assertThat(AuditDiff.of(BEFORE, BEFORE)).isEmpty();
    assertThat(AuditDiff.of(null, null)).isEmpty();
  }

  @Test
  void aNestedChangeIsOneChangeOfTheTopLevelField() {
    String after = BEFORE.replace("1000", "2000").replace("[]", "[\"b\"]");
    List<AuditDiff.FieldChange> diff = AuditDiff.of(BEFORE, after);
    assertThat(AuditDiff.fieldNames(diff)).containsExactly("retryBackoff", "childJobIds");
    assertThat(diff.get(0).after().path("initialDelayMs").asLong()).isEqualTo(2000);
  }

  @Test
  void aCreationListsEveryFieldItSetAndADeletionEveryFieldItHad() {
    List<AuditDiff.FieldChange> created = AuditDiff.of(null, BEFORE);
    assertThat(AuditDiff.fieldNames(created))
        .containsExactly("id", "schedule", "params", "enabled", "retryBackoff", "childJobIds");
    assertThat(created.get(0).before().isNull()).isTrue();
    List<AuditDiff.FieldChange> deleted = AuditDiff.of(BEFORE, null);
    assertThat(deleted).hasSize(6);
    assertThat(deleted.get(0).after().isNull()).isTrue();
  }

  @Test
  void aFieldOnlyOneSideHasIsNullOnTheOther() {
    String after =
        BEFORE
            .replace("\"enabled\":true,", "")
            .replace("\"childJobIds\":[]}", "\"childJobIds\":[],\"owner\":\"ops\"}");
    List<AuditDiff.FieldChange> diff = AuditDiff.of(BEFORE, after);
    assertThat(AuditDiff.fieldNames(diff)).containsExactly("enabled", "owner");
    assertThat(diff.get(0).after().isNull()).isTrue();
    assertThat(diff.get(1).before().isNull()).isTrue();
  }

  @Test
  void textThatIsNotAJsonObjectReadsAsEmpty() {
    assertThat(AuditDiff.fieldNames(AuditDiff.of("not json", "{\"a\":1}"))).containsExactly("a");
    assertThat(AuditDiff.of("[1,2]", "{}")).isEmpty();
  }
}
