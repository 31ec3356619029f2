package dev.kairos.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.kairos.core.log.LogLine;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.EmbeddedPostgreSql;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.sync.event.EventParser;
import dev.kairos.sync.event.SyncEvent;
import dev.kairos.sync.history.DailyCount;
import dev.kairos.sync.history.TriggerHistoryQueries;
import dev.kairos.sync.history.TriggerRecord;
import dev.kairos.sync.history.TriggerRetention;
import dev.kairos.sync.store.SyncStore;
import dev.kairos.sync.worker.SchemaMigrator;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@RealInfra(postgres = true)
class TriggerHistoryIT {

  /** 2025-06-02T00:00:00Z. */
  private static final long DAY0 = Instant.parse("2025-06-02T00:00:00Z").toEpochMilli();

  private static final long HOUR = 3_600_000;

  private final EmbeddedPostgreSql pg;
  private HikariDataSource dataSource;
  private TriggerHistoryQueries queries;
  private final EventParser parser = new EventParser();
  private long seq;

  TriggerHistoryIT(EmbeddedPostgreSql pg) {
    this.pg = pg;
  }

  @BeforeEach
  void setUp() throws SQLException {
    try (Connection c = pg.connect();
        Statement st = c.createStatement()) {
      st.execute("DROP SCHEMA public CASCADE");
      st.execute("CREATE SCHEMA public");
    }
    dataSource = SyncFixture.dataSource(pg);
    new SchemaMigrator(dataSource).migrate();
    queries = new TriggerHistoryQueries(dataSource);
  }

  @AfterEach
  void tearDown() {
    dataSource.close();
  }

  private SyncEvent event(String job, long fireMs, String state, String message) {
    seq++;
    return parser.parse(
        0,
        (fireMs + 1) + "-" + seq,
        Map.of(
            "type",
            "TRIGGER_UPDATED",
            "triggerId",
            job + ":" + fireMs,
            "jobId",
            job,
            "state",
            state,
            "fireMs",
            Long.toString(fireMs),
            "message",
            message,
            "ms",
            Long.toString(fireMs + 1)));
  }

  /** Per hour of day 0 and day 1: job a succeeds, job b fails every third hour, else runs. */
  private void history() throws SQLException {
    List<SyncEvent> events = new ArrayList<>();
    for (int h = 0; h < 48; h++) {
      long fire = DAY0 + h * HOUR;
      events.add(event("a", fire, "SUCCESS", "ok"));
      events.add(event("b", fire, h % 3 == 0 ? "FAIL" : "RUNNING", h % 3 == 0 ? "boom" : ""));
    }
    new SyncStore(dataSource).apply(events);
  }

  @Test
  void aJobsRecentTriggersArePagedNewestFirst() throws SQLException {
    history();
    List<TriggerRecord> first = queries.recentTriggers("a", 0, 10);
    List<TriggerRecord> second = queries.recentTriggers("a", 1, 10);
    assertThat(first).hasSize(10);
    assertThat(first.get(0).fireMs()).isEqualTo(DAY0 + 47 * HOUR);
    assertThat(second.get(0).fireMs()).isEqualTo(DAY0 + 37 * HOUR);
    assertThat(queries.recentTriggers("a", 4, 10)).hasSize(8);
    assertThat(queries.countTriggers("a")).isEqualTo(48);
    assertThat(queries.countTriggers("no-such-job")).isZero();
    assertThatThrownBy(() -> queries.recentTriggers("a", 0, 501))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void failuresInATimeRange() throws SQLException {
    history();
    List<TriggerRecord> failures = queries.failures(DAY0, DAY0 + 12 * HOUR, 100);
    assertThat(failures)
        .extracting(TriggerRecord::fireMs)
        .containsExactly(DAY0, DAY0 + 3 * HOUR, DAY0 + 6 * HOUR, DAY0 + 9 * HOUR);
    assertThat(failures).allMatch(t -> t.jobId().equals("b") && t.message().equals("boom"));
  }

  @Test
  void dailyCountsPerJobAndOverall() throws SQLException {
    history();
    LocalDate day = LocalDate.of(2025, 6, 2);
    queries.refreshDailyReport(day);
    queries.refreshDailyReport(day); // idempotent
    assertThat(queries.dailyReport(day))
        .containsExactlyInAnyOrder(
            new DailyCount(day, "*", 24, 8, 16, 0),
            new DailyCount(day, "a", 24, 0, 0, 0),
            new DailyCount(day, "b", 0, 8, 16, 0));
  }

  @Test
  void retentionDeletesOnlyOldTriggersInBatches() throws SQLException {
    history();
    SettableClock clock = new SettableClock(DAY0 + 24 * HOUR + Duration.ofDays(7).toMillis());
    TriggerRetention retention =
        new TriggerRetention(dataSource, clock, Duration.ofDays(7), Duration.ofHours(1), 7);
    assertThat(retention.purge()).isEqualTo(48); // day 0, in batches of 7
    assertThat(queries.recentTriggers("a", 0, 100)).hasSize(24);
    assertThat(queries.recentTriggers("a", 0, 100)).allMatch(t -> t.fireMs() >= DAY0 + 24 * HOUR);
    assertThatThrownBy(
            () -> new TriggerRetention(dataSource, clock, Duration.ofDays(6), Duration.ZERO, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least");
  }

  private SyncEvent logEvent(String triggerId, long fireMs, long... seqs) {
    seq++;
    Map<String, String> body = new java.util.LinkedHashMap<>();
    body.put("type", "TRIGGER_LOG");
    body.put("triggerId", triggerId);
    body.put("jobId", triggerId.substring(0, triggerId.indexOf(':')));
    body.put("fireMs", Long.toString(fireMs));
    for (long s : seqs) {
      body.put(
          "L" + s, new LogLine(s, fireMs + s, "INFO", "line " + s + "\twith a tab").encodeBody());
    }
    return parser.parse(0, (fireMs + 1) + "-" + seq, body);
  }

  @Test
  void logLinesAreStoredOnceInOrderAndPagedAfterACursor() throws SQLException {
    SyncStore store = new SyncStore(dataSource);
    String trigger = "a:" + DAY0;
    // Batches applied out of order, one of them twice (a replay): each line is kept once.
    store.apply(List.of(logEvent(trigger, DAY0, 3, 4), logEvent(trigger, DAY0, 1, 2)));
    store.apply(List.of(logEvent(trigger, DAY0, 3, 4)));
    assertThat(queries.logLines(trigger, 0, 100))
        .extracting(LogLine::seq)
        .containsExactly(1L, 2L, 3L, 4L);
    assertThat(queries.logLines(trigger, 2, 1))
        .containsExactly(new LogLine(3, DAY0 + 3, "INFO", "line 3\twith a tab"));
    assertThat(queries.logLines(trigger, 4, 100)).isEmpty();
  }

  @Test
  void retentionDeletesOldTriggersLogLinesToo() throws SQLException {
    SyncStore store = new SyncStore(dataSource);
    long old = DAY0;
    long recent = DAY0 + Duration.ofDays(8).toMillis();
    store.apply(List.of(logEvent("a:" + old, old, 1, 2, 3), logEvent("a:" + recent, recent, 1)));
    SettableClock clock = new SettableClock(DAY0 + Duration.ofDays(7).toMillis() + HOUR);
    new TriggerRetention(dataSource, clock, Duration.ofDays(7), Duration.ofHours(1), 2).purge();
    assertThat(queries.logLines("a:" + old, 0, 100)).isEmpty();
    assertThat(queries.logLines("a:" + recent, 0, 100)).hasSize(1);
  }
}
