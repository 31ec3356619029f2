package dev.kairos.console.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobFormTest {

  @Test
  void anEditKeepsWhatTheFormDoesNotShowAndSendsNoReadOnlyField() {
    Map<String, Object> stored = new LinkedHashMap<>();
    stored.put("id", "nightly");
    stored.put("retryBackoff", Map.of("kind", "EXPONENTIAL", "initialDelayMs", 2000));
    stored.put("version", 7);
    stored.put("nextFireMs", 123);
    stored.put("schedule", "0 0 1 * * *");
    stored.put("cronDialect", "QUARTZ");
    JobForm form = JobForm.of(Map.of("id", "nightly", "version", 7, "enabled", true));
    Map<String, String> errors = new LinkedHashMap<>();
    Map<String, Object> body =
        new JobForm(
                "nightly",
                "billing",
                "report",
                "CRON",
                "0 0 2 * * *",
                "",
                "{}",
                "FIRST",
                "SERIAL_EXECUTION",
                "60000",
                "3",
                "DO_NOTHING",
                "5000",
                "true",
                "a, b,,",
                "7")
            .toRequest(stored, errors);
    assertThat(errors).isEmpty();
    assertThat(body)
        .containsEntry("retryBackoff", Map.of("kind", "EXPONENTIAL", "initialDelayMs", 2000))
        .containsEntry("schedule", "0 0 2 * * *")
        .containsEntry("cronDialect", "QUARTZ")
        .containsEntry("zone", "UTC")
        .containsEntry("timeoutMs", 60000L)
        .containsEntry("enabled", true)
        .containsEntry("childJobIds", List.of("a", "b"))
        .doesNotContainKeys("id", "version", "nextFireMs");
    assertThat(form.versionOr(0)).isEqualTo(7);
    assertThat(form.enabled()).isEqualTo("true");
  }

  @Test
  void aNumberThatIsNotOneIsNamedByItsField() {
    Map<String, String> errors = new LinkedHashMap<>();
    JobForm form =
        new JobForm(
            "j",
            "app",
            "h",
            "CRON",
            "* * * * * *",
            "UTC",
            "",
            "FIRST",
            "SERIAL_EXECUTION",
            "ten",
            "1",
            "DO_NOTHING",
            "5s",
            null,
            "",
            null);
    Map<String, Object> body = form.toCreateRequest(errors);
    assertThat(errors).containsOnlyKeys("timeoutMs", "misfireThresholdMs");
    assertThat(errors.get("timeoutMs")).contains("'ten'");
    assertThat(body).containsEntry("id", "j").containsEntry("enabled", false);
  }
}
