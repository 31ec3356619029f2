package dev.kairos.core.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.LatenessObjective;
import dev.kairos.core.model.MisfireStrategy;
import dev.kairos.core.model.RetryBackoff;
import dev.kairos.core.model.ScheduleType;
import dev.kairos.core.schedule.CronDialect;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JobValidatorTest {

  private final JobValidator validator = new JobValidator();

  private static JobDefinition.Builder valid() {
    return JobDefinition.builder("nightly-report")
        .app("billing")
        .handler("com.acme.Report$Daily")
        .cron("0 0 3 * * *")
        .zone("Europe/Berlin")
        .params("{}");
  }

  private List<String> fieldsOf(JobDefinition job) {
    return validator.validate(job).stream().map(ValidationProblem::field).toList();
  }

  @Test
  void descriptionAndOwnerAreBoundedInCharactersNotBytes() {
    String emoji = "\uD83D\uDE00"; // one character, two UTF-16 units
    assertThat(fieldsOf(valid().description(emoji.repeat(1000)).owner("é".repeat(200)).build()))
        .isEmpty();
    assertThat(fieldsOf(valid().description("d".repeat(1001)).build()))
        .containsExactly("description");
    assertThat(fieldsOf(valid().owner("o".repeat(201)).build())).containsExactly("owner");
    assertThat(fieldsOf(valid().owner("two\nlines").build())).containsExactly("owner");
    assertThat(fieldsOf(valid().description("two\nlines are fine").build())).isEmpty();
  }

  @Test
  void alarmEmailsMustBePlainAddressesWithoutDuplicates() {
    assertThat(
            fieldsOf(
                valid()
                    .alarmEmails(List.of("ops@example.com", "first.last+tag@mail.example.co.uk"))
                    .build()))
        .isEmpty();
    for (String bad :
        List.of(
            "",
            "ops",
            "ops@localhost",
            "Ops <ops@example.com>",
            "ops@example.com,dev@example.com",
            "ops @example.com",
            "ops@-example.com",
            "ops@example.com\nBcc: x@example.com")) {
      assertThat(fieldsOf(valid().alarmEmails(List.of(bad)).build()))
          .as("'%s'", bad)
          .containsExactly("alarmEmails");
    }
    assertThat(fieldsOf(valid().alarmEmails(List.of("a@example.com", "A@example.com")).build()))
        .containsExactly("alarmEmails");
    List<String> tooMany = new java.util.ArrayList<>();
    for (int i = 0; i <= JobDefinition.MAX_ALARM_EMAILS; i++) {
      tooMany.add("u" + i + "@example.com");
    }
    assertThat(fieldsOf(valid().alarmEmails(tooMany).build())).containsExactly("alarmEmails");
  }

  @Test
  void alarmWebhooksMustBeAbsoluteHttpOrHttpsUrlsAndAreNotEchoedWhole() {
    assertThat(
            fieldsOf(
                valid()
                    .alarmWebhooks(
                        List.of(
                            "https://hooks.example.com/T0/B0/secret?x=1,2",
                            "http://10.0.0.7:8080/a"))
                    .build()))
        .isEmpty();
    for (String bad :
        List.of(
            "",
            "hooks.example.com/a",
            "/relative",
            "ftp://example.com/a",
            "javascript:alert(1)",
            "http:///nohost",
            "https://example.com/a b",
            "https://example.com/a\nhttps://example.com/b",
            "https://" + "h".repeat(JobValidator.MAX_URL_LENGTH))) {
      assertThat(fieldsOf(valid().alarmWebhooks(List.of(bad)).build()))
          .as("'%s'", bad)
          .containsExactly("alarmWebhooks");
    }
    assertThat(
            validator
                .validate(valid().alarmWebhooks(List.of("ftp://example.com/secret-token")).build())
                .get(0)
                .message())
        .contains("ftp")
        .doesNotContain("secret-token");
    assertThat(
            fieldsOf(
                valid()
                    .alarmWebhooks(List.of("https://example.com/a", "https://example.com/a"))
                    .build()))
        .containsExactly("alarmWebhooks");
  }

  @Test
  void aLatenessObjectiveIsBoundedAndOnlyForScheduledJobs() {
    assertThat(
            validator.validate(
                valid().latenessObjective(new LatenessObjective(99, 1000, 3_600_000)).build()))
        .isEmpty();
    assertThat(
            fieldsOf(
                valid().latenessObjective(new LatenessObjective(100, 1000, 3_600_000)).build()))
        .containsExactly("latenessObjective");
    assertThat(fieldsOf(valid().latenessObjective(new LatenessObjective(99, 0, 3_600_000)).build()))
        .containsExactly("latenessObjective");
    assertThat(fieldsOf(valid().latenessObjective(new LatenessObjective(99, 1000, 59_999)).build()))
        .containsExactly("latenessObjective");
    assertThat(
            validator.validate(
                valid()
                    .schedule(ScheduleType.API, "")
                    .latenessObjective(new LatenessObjective(99, 1000, 3_600_000))
                    .build()))
        .singleElement()
        .satisfies(p -> assertThat(p.message()).contains("API job"));
  }

  @Test
  void acceptsAValidJobOfEveryScheduleType() {
    assertThat(validator.validate(valid().build())).isEmpty();
    assertThat(validator.validate(valid().fixedRate(1_000).build())).isEmpty();
    assertThat(validator.validate(valid().fixedDelay(100).build())).isEmpty();
    assertThat(validator.validate(valid().oneShot(1_700_000_000_000L).build())).isEmpty();
    assertThat(validator.validate(valid().schedule(ScheduleType.API, "").build())).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "a:b",
        "a b",
        "a/b",
        "{x}",
        "ü",
        "x12345678901234567890123456789012345678901234567890123456789012345"
      })
  void rejectsBadJobIds(String id) {
    JobDefinition job = JobDefinition.builder(id).app("a").handler("h").cron("* * * * * *").build();
    assertThat(fieldsOf(job)).containsExactly("id");
  }

  @Test
  void acceptsTheLongestJobId() {
    assertThat(fieldsOf(JobDefinition.builder("x".repeat(64)).app("a").handler("h").build()))
        .isEmpty();
  }

  @Test
  void reportsEveryProblemAtOnceWithTheFieldNamed() {
    JobDefinition job =
        valid()
            .app("")
            .handler("")
            .cron("0 0 25 * * *")
            .zone("Mars/Olympus_Mons")
            .timeoutMs(-1)
            .retryCount(101)
            .retryBackoff(new RetryBackoff(RetryBackoff.Kind.FIXED, 5, 1, 2.0))
            .misfire(MisfireStrategy.DO_NOTHING, 4_999)
            .params("x".repeat(JobDefinition.MAX_PARAMS_BYTES + 1))
            .build();
    List<ValidationProblem> problems = validator.validate(job);
    assertThat(problems)
        .extracting(ValidationProblem::field)
        .containsExactly(
            "app",
            "handler",
            "zone",
            "schedule",
            "params",
            "timeoutMs",
            "retryCount",
            "retryBackoff",
            "misfireThresholdMs");
    assertThat(problems.get(3).message()).contains("hour field '25'");
    assertThat(problems.get(2).message()).contains("Mars/Olympus_Mons");
    assertThat(problems.get(0).message()).isEqualTo("must not be empty");
  }

  @Test
  void paramsLimitCountsUtf8BytesNotCharacters() {
    String threeByteChars = "€".repeat(JobDefinition.MAX_PARAMS_BYTES / 3 + 1);
    assertThat(fieldsOf(valid().params(threeByteChars).build())).containsExactly("params");
    assertThat(fieldsOf(valid().params("x".repeat(JobDefinition.MAX_PARAMS_BYTES)).build()))
        .isEmpty();
  }

  @Test
  void rejectsNonPositiveIntervals() {
    assertThat(fieldsOf(valid().fixedRate(0).build())).containsExactly("schedule");
    assertThat(fieldsOf(valid().fixedDelay(-1_000).build())).containsExactly("schedule");
  }

  @Test
  void intervalsAreBoundedFromATenthOfASecondToTenYears() {
    assertThat(fieldsOf(valid().fixedRate(1).build())).containsExactly("schedule");
    assertThat(fieldsOf(valid().fixedDelay(99).build())).containsExactly("schedule");
    assertThat(fieldsOf(valid().fixedRate(ScheduleBounds.MIN_INTERVAL_MS).build())).isEmpty();
    assertThat(fieldsOf(valid().fixedDelay(ScheduleBounds.MAX_INTERVAL_MS).build())).isEmpty();
    assertThat(fieldsOf(valid().fixedRate(ScheduleBounds.MAX_INTERVAL_MS + 1).build()))
        .containsExactly("schedule");
    assertThat(validator.validate(valid().fixedRate(1).build()).get(0).message())
        .contains("100..", "but was 1");
  }

  @Test
  void aOneShotInstantIsEpochMillisecondsFromTheYear2000ToTheYear9999() {
    assertThat(fieldsOf(valid().oneShot(1_000).build())).containsExactly("schedule");
    assertThat(fieldsOf(valid().oneShot(-1).build())).containsExactly("schedule");
    assertThat(fieldsOf(valid().oneShot(Long.MAX_VALUE).build())).containsExactly("schedule");
    assertThat(fieldsOf(valid().oneShot(ScheduleBounds.EARLIEST_ONE_SHOT_MS).build())).isEmpty();
    assertThat(fieldsOf(valid().oneShot(ScheduleBounds.LATEST_ONE_SHOT_MS).build())).isEmpty();
    assertThat(validator.validate(valid().oneShot(1_000).build()).get(0).message())
        .contains("2000-01-01T00:00:00Z", "but was 1000");
  }

  @Test
  void aCronThatNeverFiresIsRefusedInEitherDialect() {
    assertThat(fieldsOf(valid().cron("0 0 0 30 2 *").build())).containsExactly("schedule");
    assertThat(validator.validate(valid().cron("0 0 0 30 2 *").build()).get(0).message())
        .contains("never fires");
    assertThat(
            fieldsOf(
                valid()
                    .cron("0 0 0 ? 1 2 2001")
                    .cronDialect(CronDialect.QUARTZ)
                    .updatedMs(1_800_000_000_000L)
                    .build()))
        .containsExactly("schedule");
    assertThat(fieldsOf(valid().cron("0 0 0 29 2 *").build())).isEmpty(); // leap years come
  }

  @Test
  void retryCountBoundsAreInclusive() {
    assertThat(fieldsOf(valid().retryCount(0).build())).isEmpty();
    assertThat(fieldsOf(valid().retryCount(100).build())).isEmpty();
    assertThat(fieldsOf(valid().retryCount(-1).build())).containsExactly("retryCount");
  }

  @Test
  void misfireThresholdOfExactlyFiveSecondsIsAllowed() {
    assertThat(fieldsOf(valid().misfire(MisfireStrategy.DO_NOTHING, 5_000).build())).isEmpty();
  }

  @Test
  void checkThrowsWithEveryProblem() {
    JobDefinition job = valid().app("").timeoutMs(-5).build();
    assertThatThrownBy(() -> validator.check(job))
        .isInstanceOf(JobValidationException.class)
        .hasMessageContaining("nightly-report")
        .hasMessageContaining("app: must not be empty")
        .hasMessageContaining("timeoutMs")
        .satisfies(e -> assertThat(((JobValidationException) e).problems()).hasSize(2));
  }

  @ParameterizedTest
  @ValueSource(strings = {".", ".."})
  void idsThatArePathSegmentsAreRejected(String id) {
    JobDefinition job = JobDefinition.builder(id).app("billing").handler("h").build();
    assertThat(fieldsOf(job)).contains("id");
  }

  @Test
  void durationsTheScriptsCannotHoldAreRejectedNamingTheField() {
    long tooLong = JobDefinition.MAX_DURATION_MS + 1;
    assertThat(fieldsOf(valid().timeoutMs(Long.MAX_VALUE).build())).containsExactly("timeoutMs");
    assertThat(fieldsOf(valid().timeoutMs(tooLong).build())).containsExactly("timeoutMs");
    assertThat(validator.validate(valid().timeoutMs(JobDefinition.MAX_DURATION_MS).build()))
        .isEmpty();
    assertThat(fieldsOf(valid().misfire(MisfireStrategy.DO_NOTHING, Long.MAX_VALUE).build()))
        .containsExactly("misfireThresholdMs");
    assertThat(fieldsOf(valid().retryCount(1).retryBackoff(RetryBackoff.fixed(tooLong)).build()))
        .containsExactly("retryBackoff");
  }
}
