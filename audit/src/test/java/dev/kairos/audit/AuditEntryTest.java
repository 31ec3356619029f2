package dev.kairos.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class AuditEntryTest {

  @Test
  void anEntryReadsBackFromItsStreamFieldsAsItWasWritten() {
    AuditEntry entry =
        new AuditEntry(
            1_767_225_600_000L,
            "ops",
            "tok_1",
            AuditAction.JOB_UPDATED.name(),
            "pay",
            "nightly",
            null,
            1L,
            2L,
            "{\"a\":1}",
            "{\"a\":2}",
            "ab12",
            null);
    Map<String, String> fields = entry.toFields();
    assertThat(fields).doesNotContainKeys("triggerId", "detail");
    assertThat(AuditEntry.fromFields(0, fields)).isEqualTo(entry);
  }

  @Test
  void aPartialEntryReadsWithDefaultsInsteadOfFailing() {
    AuditEntry read = AuditEntry.fromFields(42, Map.of("versionAfter", "x", "jobId", "j"));
    assertThat(read.atMs()).as("the stream entry's time").isEqualTo(42);
    assertThat(read.actor()).isEqualTo("?");
    assertThat(read.action()).isEqualTo("?");
    assertThat(read.versionAfter()).isNull();
    assertThat(read.jobId()).isEqualTo("j");
  }
}
