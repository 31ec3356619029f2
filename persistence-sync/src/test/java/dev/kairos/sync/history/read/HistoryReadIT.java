package dev.kairos.sync.history.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.kairos.devinfra.EmbeddedPostgreSql;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.sync.event.EventParser;
import dev.kairos.sync.event.SyncEvent;
import dev.kairos.sync.history.TriggerHistoryQueries;
import dev.kairos.sync.history.TriggerRecord;
import dev.kairos.sync.store.SyncStore;
import dev.kairos.sync.worker.SchemaMigrator;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.dao.DataAccessException;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.orm.jpa.SharedEntityManagerCreator;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The JPA read side against a real PostgreSQL migrated by Flyway, with trigger rows written by the
 * real sync path ({@link SyncStore}) and the daily report by {@link TriggerHistoryQueries}.
 */
@RealInfra(postgres = true)
class HistoryReadIT {

  private static final long DAY0 = Instant.parse("2025-06-02T00:00:00Z").toEpochMilli();
  private static final long HOUR = 3_600_000;

  private final EmbeddedPostgreSql pg;
  private final EventParser parser = new EventParser();
  private HikariDataSource dataSource;
  private ConfigurableApplicationContext context;
  private HistoryReader reader;
  private long seq;

  HistoryReadIT(EmbeddedPostgreSql pg) {
    this.pg = pg;
  }

  @BeforeEach
  void setUp() throws SQLException {
    try (Connection c = pg.connect();
        Statement st = c.createStatement()) {
      st.execute("DROP SCHEMA public CASCADE");
      st.execute("CREATE SCHEMA public");
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(pg.jdbcUrl());
    config.setUsername(pg.username());
    config.setPassword(pg.password());
    config.setMaximumPoolSize(4);
    dataSource = new HikariDataSource(config);
    new SchemaMigrator(dataSource).migrate();
    history();
    AnnotationConfigApplicationContext ctx = new AnnotationConfigApplicationContext();
    ctx.registerBean(DataSource.class, () -> dataSource);
    ctx.register(HistoryReadConfiguration.class);
    ctx.refresh();
    context = ctx;
    reader = context.getBean(HistoryReader.class);
  }

  @AfterEach
  void tearDown() {
    if (context != null) {
      context.close();
    }
    dataSource.close();
  }

  /**
   * Day 0 and day 1, one fire per hour: {@code pay-a} (app pay) succeeds in 100 + h ms; {@code
   * pay-b} (app pay) fails every third hour with "card declined #h", else times out; {@code mail-c}
   * (app mail) runs and has not ended.
   */
  private void history() throws SQLException {
    job("pay-a", "pay");
    job("pay-b", "pay");
    job("mail-c", "mail");
    List<SyncEvent> events = new ArrayList<>();
    for (int h = 0; h < 48; h++) {
      long fire = DAY0 + h * HOUR;
      events.add(trigger("pay-a", fire, "SUCCESS", "ok", fire + 10, fire + 10 + 100 + h));
      boolean declined = h % 3 == 0;
      events.add(
          trigger(
              "pay-b",
              fire,
              declined ? "FAIL" : "TIMEOUT",
              declined ? "card declined #" + h : "timed out after 50%",
              fire + 5,
              fire + 1_000));
      events.add(trigger("mail-c", fire, "RUNNING", null, fire + 1, null));
    }
    new SyncStore(dataSource).apply(events);
    TriggerHistoryQueries queries = new TriggerHistoryQueries(dataSource);
    queries.refreshDailyReport(LocalDate.of(2025, 6, 2));
    queries.refreshDailyReport(LocalDate.of(2025, 6, 3));
  }

  private void job(String id, String app) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO kairos_job (job_id, shard, app, schedule_version, version)"
                    + " VALUES (?, 0, ?, 1, 1)")) {
      ps.setString(1, id);
      ps.setString(2, app);
      ps.executeUpdate();
    }
  }

  private SyncEvent trigger(
      String job, long fireMs, String state, String message, Long startedMs, Long endedMs) {
    seq++;
    Map<String, String> body = new HashMap<>();
    body.put("type", "TRIGGER_UPDATED");
    body.put("triggerId", job + ":" + fireMs);
    body.put("jobId", job);
    body.put("state", state);
    body.put("fireMs", Long.toString(fireMs));
    body.put("ms", Long.toString(fireMs + 1));
    if (message != null) {
      body.put("message", message);
    }
    if (startedMs != null) {
      body.put("startedMs", Long.toString(startedMs));
    }
    if (endedMs != null) {
      body.put("endedMs", Long.toString(endedMs));
    }
    return parser.parse(0, (fireMs + 1) + "-" + seq, body);
  }

  @Test
  void searchAcrossJobsByAppStateAndTimeRangeNewestFirst() {
    HistoryReader.TriggerPage page =
        reader.search(
            new TriggerSearch("pay", null, List.of("FAIL", "TIMEOUT"), DAY0, DAY0 + 6 * HOUR, null),
            0,
            4);
    assertThat(page.total()).isEqualTo(6); // pay-b only: pay-a succeeded, mail-c is another app
    assertThat(page.items())
        .extracting(TriggerRecord::triggerId)
        .containsExactly(
            "pay-b:" + (DAY0 + 5 * HOUR),
            "pay-b:" + (DAY0 + 4 * HOUR),
            "pay-b:" + (DAY0 + 3 * HOUR),
            "pay-b:" + (DAY0 + 2 * HOUR));
    assertThat(
            reader
                .search(new TriggerSearch(null, null, List.of(), null, null, null), 0, 10)
                .total())
        .isEqualTo(144);
    assertThat(
            reader
                .search(new TriggerSearch(null, "mail-c", List.of(), null, null, null), 2, 20)
                .items())
        .hasSize(8)
        .allMatch(t -> t.state().equals("RUNNING"));
  }

  @Test
  void freeTextMatchesTheResultMessageLiterallyAndCaseInsensitively() {
    assertThat(
            reader
                .search(new TriggerSearch(null, null, List.of(), null, null, "DECLINED #4"), 0, 50)
                .items())
        .extracting(TriggerRecord::message)
        .containsExactly("card declined #45", "card declined #42");
    // % is no wildcard: only the messages that contain a literal "50%".
    assertThat(
            reader
                .search(new TriggerSearch(null, null, List.of(), null, null, "50%"), 0, 50)
                .total())
        .isEqualTo(32);
    assertThat(
            reader
                .search(new TriggerSearch(null, null, List.of(), null, null, "5_%"), 0, 50)
                .total())
        .isZero();
  }

  @Test
  void dailyReportPerAppAndOverAllJobs() {
    DailyReport report =
        reader.dailyReport(LocalDate.of(2025, 6, 2), LocalDate.of(2025, 6, 3), null);
    LocalDate d0 = LocalDate.of(2025, 6, 2);
    LocalDate d1 = LocalDate.of(2025, 6, 3);
    assertThat(report.apps())
        .containsExactly(
            new AppDailyCount(d1, "mail", 24, 0, 0, 24, 0),
            new AppDailyCount(d1, "pay", 48, 24, 24, 0, 0),
            new AppDailyCount(d0, "mail", 24, 0, 0, 24, 0),
            new AppDailyCount(d0, "pay", 48, 24, 24, 0, 0));
    assertThat(report.allJobs())
        .containsExactly(
            new AppDailyCount(d1, "*", 72, 24, 24, 24, 0),
            new AppDailyCount(d0, "*", 72, 24, 24, 24, 0));
    assertThat(reader.dailyReport(d0, d0, "mail").apps())
        .containsExactly(new AppDailyCount(d0, "mail", 24, 0, 0, 24, 0));
  }

  @Test
  void jobStatisticsSuccessRateAndDurationPercentiles() {
    JobStats a = reader.jobStats("pay-a", DAY0, DAY0 + 24 * HOUR);
    assertThat(a.total()).isEqualTo(24);
    assertThat(a.successRate()).isEqualTo(1.0);
    assertThat(a.byState()).containsExactly(Map.entry("SUCCESS", 24L));
    // Durations 100..123 ms: interpolated p50 = 111.5, p90 = 120.7, p99 = 122.77.
    assertThat(a.durations().count()).isEqualTo(24);
    assertThat(a.durations().p50Ms()).isEqualTo(111.5);
    assertThat(a.durations().p90Ms()).isCloseTo(120.7, offset(1e-9));
    assertThat(a.durations().p99Ms()).isCloseTo(122.77, offset(1e-9));
    assertThat(a.durations().maxMs()).isEqualTo(123L);

    JobStats b = reader.jobStats("pay-b", DAY0, DAY0 + 24 * HOUR);
    assertThat(b.byState()).containsExactly(Map.entry("FAIL", 8L), Map.entry("TIMEOUT", 16L));
    assertThat(b.successRate()).isEqualTo(0.0);

    JobStats c = reader.jobStats("mail-c", DAY0, DAY0 + 24 * HOUR);
    assertThat(c.finished()).isZero();
    assertThat(c.successRate()).isNull();
    assertThat(c.durations().count()).isZero();
    assertThat(c.durations().p50Ms()).isNull();
  }

  @Test
  void theReadSideCannotWrite() {
    // A transactional EntityManager of the history unit, as a repository would use it.
    EntityManager em =
        SharedEntityManagerCreator.createSharedEntityManager(
            context.getBean(EntityManagerFactory.class));
    TransactionTemplate readOnly =
        new TransactionTemplate(context.getBean(JpaTransactionManager.class));
    readOnly.setReadOnly(true);
    // HQL updates of an @Immutable entity are refused by Hibernate...
    assertThatThrownBy(
            () ->
                readOnly.executeWithoutResult(
                    s ->
                        em.createQuery("update TriggerEntity t set t.state = 'FAIL'")
                            .executeUpdate()))
        .hasStackTraceContaining("immutable");
    // ...and even native SQL in the read-only transaction is refused by PostgreSQL.
    assertThatThrownBy(
            () ->
                readOnly.executeWithoutResult(
                    s ->
                        em.createNativeQuery("UPDATE kairos_trigger SET state = 'FAIL'")
                            .executeUpdate()))
        .hasStackTraceContaining("read-only transaction");
    assertThat(
            reader
                .search(new TriggerSearch(null, null, List.of("FAIL"), null, null, null), 0, 1)
                .total())
        .isEqualTo(16);
  }

  @Test
  void theUnitBootsWithoutPostgreSqlAndOnlyTheQueryFails() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:postgresql://127.0.0.1:1/kairos"); // nothing listens on port 1
    config.setInitializationFailTimeout(-1);
    config.setConnectionTimeout(1_000);
    try (HikariDataSource down = new HikariDataSource(config);
        AnnotationConfigApplicationContext ctx = new AnnotationConfigApplicationContext()) {
      ctx.registerBean(DataSource.class, () -> down);
      ctx.register(HistoryReadConfiguration.class);
      ctx.refresh(); // Hibernate reads no JDBC metadata at boot
      HistoryReader offline = ctx.getBean(HistoryReader.class);
      assertThatThrownBy(
              () -> offline.search(new TriggerSearch(null, null, null, null, null, null), 0, 1))
          .isInstanceOf(DataAccessException.class);
    }
  }
}
