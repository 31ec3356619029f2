package dev.kairos.alarm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.alarm.spring.AlarmAutoConfiguration;
import dev.kairos.core.alarm.Alarm;
import dev.kairos.core.alarm.AlarmKind;
import dev.kairos.core.alarm.AlarmRecipients;
import dev.kairos.core.alarm.AlarmSink;
import dev.kairos.devinfra.Poll;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.mail.MailSenderAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The email channel as Boot wires it, sending through a real SMTP server started by the test. */
class EmailAlarmIT {

  private static final Duration WAIT = Duration.ofSeconds(20);

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  MailSenderAutoConfiguration.class, AlarmAutoConfiguration.class))
          .withPropertyValues(
              "spring.mail.host=127.0.0.1",
              "spring.mail.properties.mail.smtp.connectiontimeout=2000",
              "spring.mail.properties.mail.smtp.timeout=5000",
              "kairos.alarm.log.enabled=false",
              "kairos.alarm.email.from=kairos@example.org",
              "kairos.alarm.email.to=ops@example.org,oncall@example.org",
              "kairos.alarm.email.initial-backoff=50ms",
              "kairos.alarm.email.max-backoff=100ms");

  private static Alarm noExecutor() {
    return new Alarm(
        AlarmKind.APP_WITHOUT_EXECUTOR,
        "billing",
        "executor app billing has 2 enabled job(s) but no live executor",
        Map.of("enabledJobs", "2"),
        1_700_000_000_000L);
  }

  @Test
  void anAlarmArrivesAsOneMailToEveryRecipient() throws Exception {
    try (SmtpReceiver smtp = new SmtpReceiver()) {
      runner
          .withPropertyValues("spring.mail.port=" + smtp.port())
          .run(
              context -> {
                AlarmSink sink = context.getBean(AlarmSink.class);
                assertThat(sink.raise(noExecutor())).isTrue();
                assertThat(sink.raise(noExecutor())).as("inside the window").isFalse();

                Poll.until(WAIT, "one mail", () -> smtp.mails().size() == 1);
                SmtpReceiver.Mail mail = smtp.mails().get(0);
                assertThat(mail.recipients())
                    .containsExactlyInAnyOrder("ops@example.org", "oncall@example.org");
                assertThat(mail.data())
                    .contains("Subject: [Kairos] executor app billing has 2 enabled job(s)")
                    .contains("From: kairos@example.org")
                    .contains("enabledJobs: 2");
                AlarmMetrics metrics = context.getBean(AlarmMetrics.class);
                Poll.until(
                    WAIT,
                    "delivered counted",
                    () -> metrics.count("kairos.alarm.delivered", "channel", "email") == 1);
              });
    }
  }

  @Test
  void aJobsOwnRecipientsGetItsAlarmInAMailOfTheirOwn() throws Exception {
    try (SmtpReceiver smtp = new SmtpReceiver()) {
      runner
          .withPropertyValues("spring.mail.port=" + smtp.port())
          .run(
              context -> {
                Alarm failed =
                    new Alarm(
                        AlarmKind.TRIGGER_FAILED,
                        "nightly-report",
                        "job nightly-report failed",
                        Map.of("state", "FAIL"),
                        1_700_000_000_000L,
                        new AlarmRecipients(
                            List.of("owner@example.com", "team+alarms@example.com"), List.of()));
                assertThat(context.getBean(AlarmSink.class).raise(failed)).isTrue();

                Poll.until(WAIT, "two mails", () -> smtp.mails().size() == 2);
                assertThat(smtp.mails())
                    .extracting(SmtpReceiver.Mail::recipients)
                    .containsExactlyInAnyOrder(
                        List.of("ops@example.org", "oncall@example.org"),
                        List.of("owner@example.com", "team+alarms@example.com"));
                assertThat(smtp.mails())
                    .allSatisfy(
                        m -> assertThat(m.data()).contains("Subject: [Kairos] job nightly-report"));
                AlarmMetrics metrics = context.getBean(AlarmMetrics.class);
                Poll.until(
                    WAIT,
                    "both counted",
                    () ->
                        metrics.count("kairos.alarm.delivered", "channel", "email") == 1
                            && metrics.count("kairos.alarm.delivered", "channel", "job-email")
                                == 1);
              });
    }
  }

  @Test
  void withoutAMailServerAJobsEmailRecipientsAreAFailedDelivery() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AlarmAutoConfiguration.class))
        .withPropertyValues("kairos.alarm.log.enabled=false")
        .run(
            context -> {
              context
                  .getBean(AlarmSink.class)
                  .raise(
                      new Alarm(
                          AlarmKind.TRIGGER_FAILED,
                          "no-mail",
                          "job no-mail failed",
                          Map.of(),
                          1_700_000_000_000L,
                          new AlarmRecipients(List.of("owner@example.com"), List.of())));
              AlarmMetrics metrics = context.getBean(AlarmMetrics.class);
              Poll.until(
                  WAIT,
                  "given up",
                  () -> metrics.count("kairos.alarm.failed", "channel", "job-email") == 1);
              assertThat(metrics.count("kairos.alarm.retries", "channel", "job-email")).isZero();
            });
  }

  @Test
  void aMailServerThatIsDownIsRetriedThenGivenUp() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    runner
        .withPropertyValues("spring.mail.port=" + port, "kairos.alarm.email.retries=2")
        .run(
            context -> {
              context.getBean(AlarmSink.class).raise(noExecutor());
              AlarmMetrics metrics = context.getBean(AlarmMetrics.class);
              Poll.until(
                  WAIT,
                  "given up",
                  () -> metrics.count("kairos.alarm.failed", "channel", "email") == 1);
              assertThat(metrics.count("kairos.alarm.retries", "channel", "email")).isEqualTo(2);
            });
  }
}
