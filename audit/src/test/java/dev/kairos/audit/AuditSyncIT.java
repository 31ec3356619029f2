package dev.kairos.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.EmbeddedPostgreSql;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.sync.event.StreamId;
import dev.kairos.sync.worker.SchemaMigrator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The audit stream reaches PostgreSQL once per entry: entries appended while PostgreSQL is down
 * wait in Redis and are written when it is back; two consumers of the group share the entries
 * without writing one twice; a replayed insert writes nothing; the stream is trimmed once written.
 */
@RealInfra(redis = RedisMode.STANDALONE, postgres = true)
class AuditSyncIT {

  private static final Duration DEADLINE = Duration.ofSeconds(60);

  private static EmbeddedPostgreSql postgres;
  private static KairosRedis redis;
  private static HikariDataSource dataSource;

  @BeforeAll
  static void connect(EmbeddedInfrastructure infra) {
    postgres = infra.postgres();
    redis = KairosRedis.connect(List.of(infra.redis().uri()), false, Duration.ofSeconds(5));
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(postgres.jdbcUrl());
    config.setUsername(postgres.username());
    config.setPassword(postgres.password());
    config.setMaximumPoolSize(4);
    // Start (and stay) without a database, as a node's pool does.
    config.setInitializationFailTimeout(-1);
    config.setConnectionTimeout(2_000);
    dataSource = new HikariDataSource(config);
  }

  @AfterAll
  static void close() {
    if (dataSource != null) {
      dataSource.close();
    }
    if (redis != null) {
      redis.close();
    }
  }

  /** Each test starts from no stream and no group. */
  @BeforeEach
  void freshStream() {
    redis.sync().del(RedisKeys.auditLog());
  }

  private static AuditSync consumer(String name, SimpleMeterRegistry meters) {
    return new AuditSync(
        redis,
        new AuditSchema(new SchemaMigrator(dataSource)),
        new AuditTable(dataSource),
        new AuditSync.Settings(
            name,
            50,
            Duration.ofMillis(50),
            Duration.ofMinutes(1),
            Duration.ofMillis(100),
            Duration.ofMillis(500)),
        meters);
  }

  private static List<AuditEntry> entries(String actor, int n) {
    List<AuditEntry> entries = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      entries.add(
          new AuditEntry(
              System.currentTimeMillis(),
              actor,
              "config",
              AuditAction.JOB_UPDATED.name(),
              "app",
              "job-" + i,
              null,
              (long) i,
              (long) i + 1,
              "{\"n\":" + i + "}",
              "{\"n\":" + (i + 1) + "}",
              null,
              null));
    }
    return entries;
  }

  private static long rows(String actor) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT count(*) FROM kairos_audit WHERE actor = ?")) {
      ps.setString(1, actor);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("PostgreSQL did not answer", e);
    }
  }

  @Test
  void entriesAppendedWhilePostgresIsDownAreWrittenOnceItIsBack() {
    String actor = "down-" + UUID.randomUUID();
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    AuditStream stream = new AuditStream(redis, 100_000, meters);
    postgres.stop();
    try (AuditSync sync = consumer("down-a", meters)) {
      try {
        sync.start();
        List<String> ids = stream.appendAll(entries(actor, 30));
        assertThat(ids).as("appending never needs PostgreSQL").doesNotContainNull();
        Poll.until(
            DEADLINE,
            "the consumer fails its rounds while PostgreSQL is down",
            () -> meters.counter(AuditSync.SYNC_FAILURES).count() >= 2);
        assertThat(redis.sync().xlen(RedisKeys.auditLog())).isEqualTo(30);
      } finally {
        postgres.start();
      }
      Poll.until(DEADLINE, "the 30 entries in PostgreSQL", () -> rows(actor) == 30);
      Poll.until(
          DEADLINE,
          "the stream trimmed of what was written",
          () -> redis.sync().xlen(RedisKeys.auditLog()) == 0);
      assertThat(rows(actor)).isEqualTo(30);
      assertThat(meters.counter(AuditStream.APPEND_FAILURES).count()).isZero();
    }
  }

  @Test
  void twoConsumersShareTheEntriesAndWriteEachOnce() {
    String actor = "shared-" + UUID.randomUUID();
    SimpleMeterRegistry metersA = new SimpleMeterRegistry();
    SimpleMeterRegistry metersB = new SimpleMeterRegistry();
    AuditStream stream = new AuditStream(redis, 100_000, new SimpleMeterRegistry());
    try (AuditSync a = consumer("shared-a", metersA);
        AuditSync b = consumer("shared-b", metersB)) {
      a.start();
      b.start();
      for (int round = 0; round < 10; round++) {
        stream.appendAll(entries(actor, 40));
      }
      Poll.until(DEADLINE, "the 400 entries in PostgreSQL", () -> rows(actor) == 400);
      Poll.until(
          DEADLINE,
          "both consumers idle with every entry counted",
          () ->
              metersA.counter(AuditSync.SYNCED).count() + metersB.counter(AuditSync.SYNCED).count()
                  >= 400);
      assertThat(
              metersA.counter(AuditSync.SYNCED).count() + metersB.counter(AuditSync.SYNCED).count())
          .as("each entry written by one consumer")
          .isEqualTo(400);
      assertThat(rows(actor)).isEqualTo(400);
    }
  }

  @Test
  void anAppendRedisRefusesIsCountedAndDoesNotThrow() {
    // The key holds a string, so XADD answers WRONGTYPE: Redis refuses the entry.
    redis.sync().set(RedisKeys.auditLog(), "not a stream");
    try {
      SimpleMeterRegistry meters = new SimpleMeterRegistry();
      AuditStream stream = new AuditStream(redis, 100_000, meters);
      List<String> ids = stream.appendAll(entries("refused-" + UUID.randomUUID(), 2));
      assertThat(ids).containsExactly(null, null);
      assertThat(meters.counter(AuditStream.APPEND_FAILURES).count()).isEqualTo(2);
      assertThat(meters.counter(AuditStream.APPENDED).count()).isZero();
    } finally {
      redis.sync().del(RedisKeys.auditLog());
    }
  }

  @Test
  void aReplayedInsertWritesNothing() throws SQLException {
    new AuditSchema(new SchemaMigrator(dataSource)).ensure();
    String actor = "replay-" + UUID.randomUUID();
    AuditTable table = new AuditTable(dataSource);
    List<AuditRecord> records = new ArrayList<>();
    long ms = System.currentTimeMillis();
    for (AuditEntry e : entries(actor, 3)) {
      records.add(new AuditRecord(new StreamId(ms, records.size()), e));
    }
    assertThat(table.insert(records)).isEqualTo(3);
    assertThat(table.insert(records)).isZero();
    assertThat(rows(actor)).isEqualTo(3);
    AuditTable.Page page =
        table.page(new AuditTable.Filter(null, null, actor, null, null), null, 2);
    assertThat(page.items()).extracting(r -> r.entry().jobId()).containsExactly("job-2", "job-1");
    AuditTable.Page next =
        table.page(new AuditTable.Filter(null, null, actor, null, null), page.next(), 2);
    assertThat(next.items()).extracting(r -> r.entry().jobId()).containsExactly("job-0");
    assertThat(next.next()).isNull();
  }

  @Test
  void retentionDeletesEntriesOlderThanItKeeps() throws SQLException {
    AuditSchema schema = new AuditSchema(new SchemaMigrator(dataSource));
    schema.ensure();
    String actor = "old-" + UUID.randomUUID();
    AuditTable table = new AuditTable(dataSource);
    long now = System.currentTimeMillis();
    List<AuditRecord> records = new ArrayList<>();
    long[] ages = {Duration.ofDays(500).toMillis(), Duration.ofDays(401).toMillis(), 0};
    for (int i = 0; i < ages.length; i++) {
      AuditEntry e = entries(actor, ages.length).get(i);
      AuditEntry aged =
          new AuditEntry(
              now - ages[i],
              e.actor(),
              e.actorSource(),
              e.action(),
              e.app(),
              e.jobId(),
              null,
              null,
              null,
              null,
              null,
              null,
              null);
      records.add(new AuditRecord(new StreamId(now - ages[i], i), aged));
    }
    table.insert(records);
    try (AuditRetention retention =
        new AuditRetention(
            schema,
            table,
            System::currentTimeMillis,
            AuditRetention.DEFAULT_RETENTION,
            AuditRetention.DEFAULT_INTERVAL,
            1)) {
      assertThat(retention.purge()).isGreaterThanOrEqualTo(2);
    }
    assertThat(rows(actor)).isEqualTo(1);
  }
}
