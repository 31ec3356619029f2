package dev.kairos.objectives;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.kairos.core.alarm.Alarm;
import dev.kairos.core.alarm.AlarmKind;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.JobHash;
import dev.kairos.core.model.LatenessObjective;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.sync.event.EventParser;
import dev.kairos.sync.event.SyncEvent;
import dev.kairos.sync.store.SyncStore;
import dev.kairos.sync.worker.SchemaMigrator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Objectives judged on a real PostgreSQL history written by the real sync path: the job rows come
 * from JOB_UPSERTED events carrying the job hash, the trigger rows from trigger events, as a node's
 * persistence-sync writes them. Ids carry this run's suffix, so other classes sharing the database
 * do not disturb the counts.
 */
@RealInfra(postgres = true)
class ObjectiveWatchIT {

  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
  private static final long NOW = 1_800_000_000_000L;
  private static final long HOUR = 3_600_000;

  private static HikariDataSource dataSource;
  private static SyncStore store;
  private static final EventParser parser = new EventParser();
  private static final AtomicLong seq = new AtomicLong();

  @BeforeAll
  static void connect(EmbeddedInfrastructure infra) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(infra.postgres().jdbcUrl());
    config.setUsername(infra.postgres().username());
    config.setPassword(infra.postgres().password());
    config.setMaximumPoolSize(2);
    dataSource = new HikariDataSource(config);
    new SchemaMigrator(dataSource).migrate();
    store = new SyncStore(dataSource);
  }

  @AfterAll
  static void close() {
    if (dataSource != null) {
      dataSource.close();
    }
  }

  private static String id(String name) {
    return name + "-" + RUN;
  }

  private static void job(String id, LatenessObjective objective, boolean enabled) {
    JobDefinition job =
        JobDefinition.builder(id)
            .app("objectives")
            .handler("h")
            .cron("* * * * * *")
            .enabled(enabled)
            .version(1)
            .createdMs(NOW - 2 * HOUR)
            .alarmEmails(List.of("owner@example.com"))
            .latenessObjective(Optional.ofNullable(objective))
            .build();
    Map<String, String> body = new HashMap<>(JobHash.toHash(job));
    body.put("type", "JOB_UPSERTED");
    apply(body, NOW - 2 * HOUR);
  }

  /** A trigger event as a final state writes it; {@code lateMs} null = never started. */
  private static void trigger(
      String triggerId, String jobId, long fireMs, String state, Long lateMs) {
    Map<String, String> body = new HashMap<>();
    body.put("type", "TRIGGER_ENDED");
    body.put("triggerId", triggerId);
    body.put("jobId", jobId);
    body.put("state", state);
    body.put("fireMs", Long.toString(fireMs));
    if (lateMs != null) {
      body.put("startedMs", Long.toString(fireMs + lateMs));
    }
    body.put("endedMs", Long.toString(fireMs + (lateMs == null ? 0 : lateMs) + 5));
    apply(body, fireMs + 10);
  }

  private static void apply(Map<String, String> body, long ms) {
    List<SyncEvent> events = new ArrayList<>();
    SyncEvent event = parser.parse(0, ms + "-" + seq.incrementAndGet(), body);
    assertThat(event).isNotInstanceOf(SyncEvent.Unknown.class);
    events.add(event);
    try {
      store.apply(events);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void theSampleCountsScheduledFirstAttemptsOfTheWindowAndNeverStartedFiresAsLate() {
    String job = id("sample");
    job(job, new LatenessObjective(90, 200, HOUR), true);
    // Ten scheduled fires inside the window, late 10, 20, ... 100 ms.
    for (int i = 1; i <= 10; i++) {
      long fire = NOW - i * 60_000L;
      trigger(job + ":" + fire, job, fire, "SUCCESS", 10L * i);
    }
    long fire = NOW - 30 * 60_000L;
    // Not scheduled first attempts, or not meant to start: none of them counts.
    trigger(job + ":" + fire + "/r1", job, fire, "SUCCESS", 99_000L);
    trigger(job + ":" + fire + ":m" + RUN, job, fire, "SUCCESS", 99_000L);
    trigger(job + ":" + (fire + 1), job, fire + 1, "DISCARDED", null);
    trigger(job + ":" + (fire + 2), job, fire + 2, "CANCELLED", null);
    // Outside the window.
    trigger(job + ":" + (NOW - 2 * HOUR), job, NOW - 2 * HOUR, "SUCCESS", 99_000L);
    LatenessHistory history = new LatenessHistory(dataSource);

    LatenessSample sample = history.sample(job, new LatenessObjective(90, 200, HOUR), NOW);
    assertThat(sample.fires()).isEqualTo(10);
    assertThat(sample.neverStarted()).isZero();
    assertThat(sample.observedMs()).isEqualTo(OptionalLong.of(90));
    assertThat(history.sample(job, new LatenessObjective(50, 200, HOUR), NOW).observedMs())
        .isEqualTo(OptionalLong.of(50));

    // One lost fire: the slowest tenth is now a fire that never started.
    trigger(job + ":" + (fire + 3), job, fire + 3, "LOST", null);
    LatenessSample withLost = history.sample(job, new LatenessObjective(95, 200, HOUR), NOW);
    assertThat(withLost.fires()).isEqualTo(11);
    assertThat(withLost.neverStarted()).isEqualTo(1);
    assertThat(withLost.observedMs()).isEmpty();
  }

  @Test
  void onlyEnabledLiveJobsWithAnObjectiveAreWatched() {
    job(id("with"), new LatenessObjective(99, 1000, HOUR), true);
    job(id("without"), null, true);
    job(id("disabled"), new LatenessObjective(99, 1000, HOUR), false);

    List<JobObjective> watched =
        new LatenessHistory(dataSource)
            .objectives(10_000).stream().filter(j -> j.jobId().endsWith(RUN)).toList();

    assertThat(watched).extracting(JobObjective::jobId).contains(id("with"));
    assertThat(watched)
        .extracting(JobObjective::jobId)
        .doesNotContain(id("without"), id("disabled"));
    JobObjective with =
        watched.stream().filter(j -> j.jobId().equals(id("with"))).findFirst().orElseThrow();
    assertThat(with.objective()).isEqualTo(new LatenessObjective(99, 1000, HOUR));
    assertThat(with.app()).isEqualTo("objectives");
    assertThat(with.recipients().emails()).containsExactly("owner@example.com");
  }

  @Test
  void aBreachAlarmsOnceWhileItLastsAndAgainOnlyAfterItWasMet() {
    String job = id("breach");
    job(job, new LatenessObjective(50, 100, HOUR), true);
    for (int i = 1; i <= 4; i++) {
      long fire = NOW - i * 60_000L;
      trigger(job + ":" + fire, job, fire, "SUCCESS", 500L); // every start 500 ms late
    }
    List<Alarm> alarms = new ArrayList<>();
    AtomicBoolean leading = new AtomicBoolean(true);
    AtomicLong clock = new AtomicLong(NOW);
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    ObjectiveWatch watch =
        new ObjectiveWatch(
            new LatenessHistory(dataSource),
            leading::get,
            a -> alarms.add(a),
            clock::get,
            meters,
            Duration.ofSeconds(30),
            10_000);

    watch.evaluate();
    assertThat(watch.status(job)).hasValueSatisfying(s -> assertThat(s.breached()).isTrue());
    List<Alarm> mine = alarms.stream().filter(a -> a.subject().equals(job)).toList();
    assertThat(mine).hasSize(1);
    Alarm alarm = mine.get(0);
    assertThat(alarm.kind()).isEqualTo(AlarmKind.LATENESS_OBJECTIVE);
    assertThat(alarm.title()).contains(job, "p50 ≤ 100 ms over 1 h", "500 ms");
    assertThat(alarm.recipients().emails()).containsExactly("owner@example.com");
    assertThat(gauge(meters, "kairos.objective.breached", job)).isEqualTo(1.0);
    assertThat(gauge(meters, "kairos.objective.lateness.observed", job)).isEqualTo(500.0);

    watch.evaluate(); // still breached: no second alarm
    assertThat(alarms.stream().filter(a -> a.subject().equals(job))).hasSize(1);

    // Fast fires push the median under the threshold: met, no alarm.
    for (int i = 5; i <= 12; i++) {
      long fire = NOW - i * 60_000L;
      trigger(job + ":" + fire, job, fire, "SUCCESS", 20L);
    }
    watch.evaluate();
    assertThat(watch.status(job)).hasValueSatisfying(s -> assertThat(s.breached()).isFalse());
    assertThat(gauge(meters, "kairos.objective.breached", job)).isEqualTo(0.0);

    // A later breach alarms again.
    clock.set(NOW + 50 * 60_000L);
    for (int i = 1; i <= 6; i++) {
      long fire = NOW + 50 * 60_000L - i * 1_000L;
      trigger(job + ":" + fire, job, fire, "NO_EXECUTOR", null);
    }
    watch.evaluate();
    assertThat(alarms.stream().filter(a -> a.subject().equals(job))).hasSize(2);

    // A node that no longer leads forgets its verdicts and their series.
    leading.set(false);
    watch.evaluate();
    assertThat(watch.statuses()).isEmpty();
    assertThat(meters.find("kairos.objective.breached").tag("job", job).gauge()).isNull();
  }

  private static double gauge(SimpleMeterRegistry meters, String name, String job) {
    return meters.get(name).tag("job", job).gauge().value();
  }
}
