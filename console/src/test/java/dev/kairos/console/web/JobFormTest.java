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
    stored.put("latenessObjective", Map.of("percentile", 99.0, "thresholdMs", 1000));
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
                "  Nightly report.\nSecond line.  ",
                " billing-team ",
                "a@example.com, b@example.org\nc@example.net",
                "https://hooks.example.com/x?tags=a,b\r\n http://10.0.0.1/y \n",
                " holidays, weekends ",
                " 99.9 ",
                "250",
                "",
                "7")
            .toRequest(stored, errors);
    assertThat(errors).isEmpty();
    assertThat(body)
        .containsEntry("retryBackoff", Map.of("kind", "EXPONENTIAL", "initialDelayMs", 2000))
        .containsEntry("latenessObjective", Map.of("thresholdMs", 250L, "percentile", 99.9))
        .containsEntry("schedule", "0 0 2 * * *")
        .containsEntry("cronDialect", "QUARTZ")
        .containsEntry("zone", "UTC")
        .containsEntry("timeoutMs", 60000L)
        .containsEntry("enabled", true)
        .containsEntry("childJobIds", List.of("a", "b"))
        .containsEntry("calendars", List.of("holidays", "weekends"))
        .containsEntry("description", "Nightly report.\nSecond line.")
        .containsEntry("owner", "billing-team")
        .containsEntry("alarmEmails", List.of("a@example.com", "b@example.org", "c@example.net"))
        .containsEntry(
            "alarmWebhooks", List.of("https://hooks.example.com/x?tags=a,b", "http://10.0.0.1/y"))
        .doesNotContainKeys("id", "version", "nextFireMs");
    assertThat(form.versionOr(0)).isEqualTo(7);
    assertThat(form.enabled()).isEqualTo("true");
  }

  @Test
  void theChosenCronDialectReplacesTheStoredOneAndAStoredOneIsShown() {
    Map<String, Object> stored = new LinkedHashMap<>();
    stored.put("id", "j");
    stored.put("cronDialect", "QUARTZ");
    JobForm form = JobForm.of(stored);
    assertThat(form.cronDialect()).isEqualTo("QUARTZ");
    assertThat(JobForm.blank().cronDialect()).isEqualTo("KAIROS");
    JobForm changed =
        new JobForm(
            "j",
            "a",
            "h",
            "CRON",
            "0 0 1 * * 1",
            "UTC",
            "KAIROS",
            "",
            "FIRST",
            "SERIAL_EXECUTION",
            "0",
            "0",
            "DO_NOTHING",
            "5000",
            "true",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "1");
    stored.put("latenessObjective", Map.of("thresholdMs", 1000));
    assertThat(changed.toRequest(stored, new LinkedHashMap<>()))
        .containsEntry("cronDialect", "KAIROS")
        .doesNotContainKey("latenessObjective"); // an emptied threshold removes the objective
  }

  @Test
  void aNewJobLeavesTheRoutingToItsAppUnlessOneIsChosen() {
    assertThat(JobForm.blank().routing()).isEmpty();
    assertThat(JobForm.blank().toCreateRequest(new LinkedHashMap<>())).doesNotContainKey("routing");
  }

  @Test
  void aStoredJobsRecipientsAreShownOnePerLineAndSurviveTheRoundTrip() {
    Map<String, Object> stored = new LinkedHashMap<>();
    stored.put("id", "j");
    stored.put("description", "two\nlines");
    stored.put("owner", "ops");
    stored.put("alarmEmails", List.of("a@example.com", "b@example.org"));
    stored.put("alarmWebhooks", List.of("https://h.example.com/a?x=1,2"));
    JobForm form = JobForm.of(stored);
    assertThat(form.alarmEmails()).isEqualTo("a@example.com\nb@example.org");
    assertThat(form.alarmWebhooks()).isEqualTo("https://h.example.com/a?x=1,2");
    Map<String, Object> body = form.toRequest(stored, new LinkedHashMap<>());
    assertThat(body)
        .containsEntry("description", "two\nlines")
        .containsEntry("owner", "ops")
        .containsEntry("alarmEmails", List.of("a@example.com", "b@example.org"))
        .containsEntry("alarmWebhooks", List.of("https://h.example.com/a?x=1,2"));
    assertThat(form.asCopy().owner()).isEqualTo("ops");
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
            "QUARTZ",
            "",
            "FIRST",
            "SERIAL_EXECUTION",
            "ten",
            "1",
            "DO_NOTHING",
            "5s",
            null,
            "",
            "",
            "",
            "",
            "",
            "",
            "p99",
            "1000",
            "1h",
            null);
    Map<String, Object> body = form.toCreateRequest(errors);
    assertThat(errors).containsOnlyKeys("timeoutMs", "misfireThresholdMs", "latenessObjective");
    assertThat(errors.get("timeoutMs")).contains("'ten'");
    assertThat(body)
        .containsEntry("id", "j")
        .containsEntry("enabled", false)
        .containsEntry("cronDialect", "QUARTZ");
  }
}
