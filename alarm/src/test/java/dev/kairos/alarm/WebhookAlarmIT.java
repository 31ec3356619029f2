package dev.kairos.alarm;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.alarm.webhook.WebhookAlarmChannel;
import dev.kairos.alarm.webhook.WebhookSettings;
import dev.kairos.core.alarm.Alarm;
import dev.kairos.core.alarm.AlarmKind;
import dev.kairos.core.alarm.AlarmRecipients;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.Poll;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Alarms delivered over real HTTP to a receiver started by the test. */
class WebhookAlarmIT {

  private static final Duration WINDOW = Duration.ofMinutes(10);
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String QUERY_SECRET = "query-secret-4711";
  private static final String HEADER_SECRET = "header-secret-4712";
  private static final String HMAC_SECRET = "hmac-secret-4713";

  private final SettableClock clock = new SettableClock(1_700_000_000_000L);
  private final AlarmMetrics metrics = new AlarmMetrics(new SimpleMeterRegistry());
  private final ObjectMapper json = new ObjectMapper();
  private AlarmService service;

  @AfterEach
  void close() {
    if (service != null) {
      service.close();
    }
  }

  private AlarmService start(URI url, int retries) {
    return start(url, retries, RecipientChannels.NONE);
  }

  private AlarmService start(URI url, int retries, RecipientChannels recipients) {
    WebhookSettings settings =
        new WebhookSettings(
            url,
            Map.of("Authorization", "Bearer " + HEADER_SECRET),
            HMAC_SECRET,
            Duration.ofSeconds(1),
            Duration.ofSeconds(5),
            new RetryPolicy(retries, Duration.ofMillis(50), 2, Duration.ofMillis(200)));
    service =
        new AlarmService(
            new AlarmDeduplicator(WINDOW, 1000, clock),
            List.of(new WebhookAlarmChannel("webhook-0", settings)),
            recipients,
            metrics,
            100,
            2,
            Duration.ofSeconds(2));
    service.start();
    return service;
  }

  private Alarm jobFailed(String jobId, int attempt) {
    return new Alarm(
        AlarmKind.TRIGGER_FAILED,
        jobId,
        "job " + jobId + " failed after its retries",
        Map.of("attempt", Integer.toString(attempt), "state", "FAIL"),
        clock.nowMs());
  }

  private double counter(String name) {
    return metrics.count(name, "channel", "webhook-0");
  }

  @Test
  void hundredAlarmsOfOneKeyInTheWindowAreDeliveredOnceAndTheNextCarriesTheSuppressedCount()
      throws Exception {
    try (WebhookReceiver receiver = new WebhookReceiver()) {
      start(receiver.url("/hooks/alarm?token=" + QUERY_SECRET), 3);

      int sent = 0;
      for (int i = 0; i < 100; i++) {
        clock.advance(Duration.ofSeconds(1)); // a job failing every second
        sent += service.raise(jobFailed("every-second", i)) ? 1 : 0;
      }
      Poll.until(WAIT, "the first delivery", () -> counter("kairos.alarm.delivered") == 1);
      Poll.until(WAIT, "nothing left to deliver", () -> service.pending() == 0);

      assertThat(sent).isEqualTo(1);
      assertThat(receiver.received()).hasSize(1);
      WebhookReceiver.Received first = receiver.received().get(0);
      JsonNode body = json.readTree(first.body());
      assertThat(body.get("key").asText()).isEqualTo("TRIGGER_FAILED:every-second");
      assertThat(body.get("suppressed").asLong()).isZero();
      assertThat(body.get("details").get("attempt").asText()).isEqualTo("0");
      assertThat(first.query()).isEqualTo("token=" + QUERY_SECRET);
      assertThat(first.header("Authorization")).isEqualTo("Bearer " + HEADER_SECRET);
      assertThat(first.header("Content-Type")).isEqualTo("application/json");
      assertThat(first.header("X-Kairos-Signature")).isEqualTo(hmac(first.body()));

      clock.advance(WINDOW);
      assertThat(service.raise(jobFailed("every-second", 100))).isTrue();

      Poll.until(WAIT, "the second delivery", () -> receiver.received().size() == 2);
      JsonNode second = json.readTree(receiver.received().get(1).body());
      assertThat(second.get("suppressed").asLong()).isEqualTo(99);
      assertThat(second.get("text").asText()).contains("99 more suppressed");
      assertThat(metrics.count("kairos.alarm.suppressed", "kind", "TRIGGER_FAILED")).isEqualTo(99);
    }
  }

  @Test
  void aJobsOwnWebhooksGetItsAlarmWithoutTheConfiguredHeadersOrSignature() throws Exception {
    try (WebhookReceiver configured = new WebhookReceiver();
        WebhookReceiver own = new WebhookReceiver(500)) {
      RetryPolicy retry = new RetryPolicy(3, Duration.ofMillis(50), 2, Duration.ofMillis(200));
      start(
          configured.url("/hooks/ops"),
          3,
          new JobRecipientChannels(
              null, null, retry, Duration.ofSeconds(1), Duration.ofSeconds(5), retry));
      String first = own.url("/hooks/team-a?token=" + QUERY_SECRET).toString();
      String second = own.url("/hooks/team-b").toString();
      Alarm alarm =
          new Alarm(
              AlarmKind.TRIGGER_FAILED,
              "with-recipients",
              "job with-recipients failed",
              Map.of("state", "FAIL"),
              clock.nowMs(),
              new AlarmRecipients(List.of(), List.of(first, second)));

      assertThat(service.raise(alarm)).isTrue();

      Poll.until(
          WAIT,
          "delivered to the configured webhook",
          () -> counter("kairos.alarm.delivered") == 1);
      Poll.until(
          WAIT,
          "delivered to both of the job's",
          () -> metrics.count("kairos.alarm.delivered", "channel", "job-webhook") == 2);
      // The job's receiver answered 500 once: that delivery was retried like any other.
      assertThat(metrics.count("kairos.alarm.retries", "channel", "job-webhook")).isEqualTo(1);
      List<WebhookReceiver.Received> delivered =
          own.received().stream().filter(r -> r.body().contains("with-recipients")).toList();
      assertThat(delivered)
          .extracting(WebhookReceiver.Received::path)
          .contains("/hooks/team-a", "/hooks/team-b");
      for (WebhookReceiver.Received r : delivered) {
        assertThat(json.readTree(r.body()).get("key").asText())
            .isEqualTo("TRIGGER_FAILED:with-recipients");
        assertThat(r.header("Content-Type")).isEqualTo("application/json");
        assertThat(r.header("Authorization"))
            .as("the operator's header stays with its webhook")
            .isNull();
        assertThat(r.header("X-Kairos-Signature"))
            .as("nor is the alarm signed with its secret")
            .isNull();
      }
      assertThat(configured.received()).hasSize(1);
      assertThat(configured.received().get(0).header("Authorization"))
          .isEqualTo("Bearer " + HEADER_SECRET);
    }
  }

  @Test
  void aReceiverAnswering500ThenOkGetsTheAlarmAfterOneRetry() throws Exception {
    try (WebhookReceiver receiver = new WebhookReceiver(500)) {
      start(receiver.url("/hooks/alarm"), 3);

      service.raise(jobFailed("flaky-receiver", 1));

      Poll.until(WAIT, "delivered", () -> counter("kairos.alarm.delivered") == 1);
      assertThat(receiver.received()).hasSize(2);
      assertThat(receiver.received().get(1).body()).isEqualTo(receiver.received().get(0).body());
      assertThat(counter("kairos.alarm.retries")).isEqualTo(1);
      assertThat(counter("kairos.alarm.failed")).isZero();
    }
  }

  @Test
  void aRejectingReceiverIsNotRetried() throws Exception {
    try (WebhookReceiver receiver = new WebhookReceiver(400)) {
      start(receiver.url("/hooks/alarm"), 3);

      service.raise(jobFailed("bad-request", 1));

      Poll.until(WAIT, "given up", () -> counter("kairos.alarm.failed") == 1);
      assertThat(receiver.received()).hasSize(1);
      assertThat(counter("kairos.alarm.retries")).isZero();
    }
  }

  @Test
  void aReceiverThatIsDownIsRetriedThenGivenUpAndLoggedWithoutSecrets() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort(); // closed again: nothing listens there
    }
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.start();
    root.addAppender(logs);
    Level before = root.getLevel();
    root.setLevel(Level.DEBUG);
    try {
      start(
          URI.create("http://127.0.0.1:" + port + "/hooks/T0/B0/path-token?token=" + QUERY_SECRET),
          2);

      service.raise(jobFailed("receiver-down", 1));

      Poll.until(WAIT, "given up", () -> counter("kairos.alarm.failed") == 1);
      assertThat(counter("kairos.alarm.retries")).isEqualTo(2);
      assertThat(counter("kairos.alarm.delivered")).isZero();
      List<ILoggingEvent> events = List.copyOf(logs.list);
      assertThat(events)
          .filteredOn(e -> e.getLevel() == Level.WARN)
          .map(ILoggingEvent::getFormattedMessage)
          .anySatisfy(
              line ->
                  assertThat(line)
                      .contains("given up", "channel=webhook-0", "attempts=3", "ConnectException")
                      .contains("http://127.0.0.1:" + port + "/…"));
      assertThat(events)
          .map(ILoggingEvent::getFormattedMessage)
          .noneMatch(
              line ->
                  line.contains(QUERY_SECRET)
                      || line.contains(HEADER_SECRET)
                      || line.contains(HMAC_SECRET)
                      || line.contains("path-token"));
    } finally {
      root.setLevel(before);
      root.detachAppender(logs);
    }
  }

  private static String hmac(String body) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(HMAC_SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
  }
}
