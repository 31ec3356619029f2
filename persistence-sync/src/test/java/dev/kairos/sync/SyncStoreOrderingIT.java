package dev.kairos.sync;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.kairos.devinfra.EmbeddedPostgreSql;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.sync.event.EventParser;
import dev.kairos.sync.event.SyncEvent;
import dev.kairos.sync.store.SyncStore;
import dev.kairos.sync.worker.SchemaMigrator;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Replayed and out-of-order events never move a row backwards (events shaped like the scripts').
 */
@RealInfra(postgres = true)
class SyncStoreOrderingIT {

  private final EmbeddedPostgreSql pg;
  private HikariDataSource dataSource;
  private SyncStore store;
  private RedisVsPostgres rows;
  private final EventParser parser = new EventParser();

  SyncStoreOrderingIT(EmbeddedPostgreSql pg) {
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
    store = new SyncStore(dataSource);
    rows = new RedisVsPostgres(null, null, dataSource);
  }

  @AfterEach
  void tearDown() {
    dataSource.close();
  }

  private static Map<String, String> body(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  /** The life of one trigger as the scripts append it, with a move while it was claimed. */
  private List<SyncEvent> triggerLife(String triggerId) {
    String job = "j1";
    return List.of(
        parser.parse(
            0,
            "1000-0",
            body(
                "type",
                "TRIGGER_CLAIMED",
                "triggerId",
                triggerId,
                "jobId",
                job,
                "state",
                "CLAIMED",
                "fireMs",
                "5000",
                "node",
                "n1",
                "term",
                "3",
                "scheduleVersion",
                "2",
                "attempt",
                "1",
                "ms",
                "1000")),
        parser.parse(
            0,
            "1500-0",
            body(
                "type",
                "TRIGGER_MOVED",
                "triggerId",
                triggerId,
                "jobId",
                job,
                "from",
                "n1",
                "node",
                "n2",
                "term",
                "4",
                "ms",
                "1500")),
        parser.parse(
            0,
            "5001-0",
            body(
                "type",
                "TRIGGER_UPDATED",
                "triggerId",
                triggerId,
                "jobId",
                job,
                "state",
                "DISPATCHED",
                "slot",
                "2",
                "ms",
                "5001")),
        parser.parse(
            0,
            "5003-0",
            body(
                "type",
                "TRIGGER_UPDATED",
                "triggerId",
                triggerId,
                "jobId",
                job,
                "state",
                "RUNNING",
                "fireMs",
                "5000",
                "executor",
                "e7",
                "slot",
                "3",
                "attempt",
                "1",
                "ts",
                "5003")),
        parser.parse(
            0,
            "5900-0",
            body(
                "type",
                "TRIGGER_UPDATED",
                "triggerId",
                triggerId,
                "jobId",
                job,
                "state",
                "FAIL",
                "fireMs",
                "5000",
                "executor",
                "e7",
                "endedMs",
                "5900",
                "message",
                "boom",
                "late",
                "0",
                "ts",
                "5900")),
        parser.parse(
            0,
            "7000-0",
            body(
                "type",
                "TRIGGER_UPDATED",
                "triggerId",
                triggerId,
                "jobId",
                job,
                "state",
                "FAIL",
                "fireMs",
                "5000",
                "executor",
                "e7",
                "endedMs",
                "7000",
                "message",
                "late ok",
                "late",
                "1",
                "ts",
                "7000")));
  }

  private static <T> void permutations(List<T> items, List<T> prefix, List<List<T>> out) {
    if (items.isEmpty()) {
      out.add(new ArrayList<>(prefix));
      return;
    }
    for (int i = 0; i < items.size(); i++) {
      List<T> rest = new ArrayList<>(items);
      prefix.add(rest.remove(i));
      permutations(rest, prefix, out);
      prefix.remove(prefix.size() - 1);
    }
  }

  private static Map<String, String> withoutIdentity(Map<String, String> row) {
    Map<String, String> copy = new HashMap<>(row);
    copy.remove("trigger_id");
    copy.remove("synced_at");
    return copy;
  }

  @Test
  void triggerEventsInAnyOrderAndReplayedEndInTheSameRow() throws SQLException {
    store.apply(triggerLife("t-inorder"));
    Map<String, String> expected = rows.rows("kairos_trigger", "trigger_id").get("t-inorder");
    assertThat(expected)
        .containsEntry("state", "FAIL")
        .containsEntry("state_rank", "3")
        .containsEntry("node", "n2")
        .containsEntry("term", "4")
        .containsEntry("slot", "3")
        .containsEntry("executor", "e7")
        .containsEntry("claimed_ms", "1000")
        .containsEntry("dispatched_ms", "5001")
        .containsEntry("started_ms", "5003")
        .containsEntry("ended_ms", "5900")
        .containsEntry("message", "boom")
        .containsEntry("late_message", "late ok")
        .containsEntry("late_ended_ms", "7000")
        .containsEntry("schedule_version", "2")
        .containsEntry("fire_ms", "5000");

    List<List<Integer>> orders = new ArrayList<>();
    permutations(List.of(0, 1, 2, 3, 4, 5), new ArrayList<>(), orders);
    int n = 0;
    for (List<Integer> order : orders) {
      String id = "t-perm-" + (n++);
      List<SyncEvent> life = triggerLife(id);
      for (int i : order) {
        store.apply(List.of(life.get(i))); // one transaction per event: worst interleaving
      }
      store.apply(life); // and the whole history replayed once more
    }
    Map<String, Map<String, String>> all = rows.rows("kairos_trigger", "trigger_id");
    assertThat(all).hasSize(orders.size() + 1);
    all.forEach(
        (id, row) ->
            assertThat(withoutIdentity(row))
                .as("trigger %s", id)
                .isEqualTo(withoutIdentity(expected)));
  }

  private SyncEvent upsert(String id, long version, long createdMs, String params, String sid) {
    Map<String, String> b =
        body(
            "type",
            "JOB_UPSERTED",
            "ms",
            Long.toString(createdMs + version),
            "id",
            id,
            "app",
            "billing",
            "handler",
            "report",
            "scheduleType",
            "CRON",
            "schedule",
            "0 * * * * *",
            "zone",
            "UTC",
            "params",
            params,
            "routing",
            "FIRST",
            "block",
            "SERIAL_EXECUTION",
            "timeoutMs",
            "0",
            "retryCount",
            "0",
            "retryBackoff",
            "FIXED:0",
            "misfire",
            "DO_NOTHING",
            "misfireThresholdMs",
            "5000",
            "enabled",
            "true",
            "scheduleVersion",
            "1",
            "version",
            Long.toString(version),
            "createdMs",
            Long.toString(createdMs),
            "updatedMs",
            Long.toString(createdMs + version));
    return parser.parse(1, sid, b);
  }

  private SyncEvent delete(String id, long version, long ms, String sid) {
    return parser.parse(
        1,
        sid,
        body(
            "type",
            "JOB_DELETED",
            "ms",
            Long.toString(ms),
            "id",
            id,
            "version",
            Long.toString(version),
            "scheduleVersion",
            "2"));
  }

  private Map<String, String> job(String id) {
    return rows.rows("kairos_job", "job_id").get(id);
  }

  @Test
  void olderJobVersionsNeverOverwriteNewerOnesAndDeletionsStick() throws SQLException {
    SyncEvent v1 = upsert("a", 1, 100, "p1", "101-0");
    SyncEvent v2 = upsert("a", 2, 100, "p2", "102-0");
    SyncEvent v3 = upsert("a", 3, 100, "p3", "103-0");
    store.apply(List.of(v3));
    store.apply(List.of(v1, v2)); // late replays of older versions
    assertThat(job("a")).containsEntry("version", "3").containsEntry("params", "p3");

    SyncEvent del = delete("a", 4, 200, "200-0");
    store.apply(List.of(del));
    store.apply(List.of(v2, v3)); // replayed upserts cannot resurrect it
    assertThat(job("a")).containsEntry("deleted", "t").containsEntry("version", "4");

    // Re-created later under the same id: a new incarnation (version 1 again) wins over the
    // tombstone, and the old incarnation's replays and deletion no longer touch it.
    SyncEvent again = upsert("a", 1, 300, "new", "300-0");
    store.apply(List.of(again));
    store.apply(List.of(v3, del));
    assertThat(job("a"))
        .containsEntry("deleted", "f")
        .containsEntry("version", "1")
        .containsEntry("params", "new")
        .containsEntry("created_ms", "300");

    // Deletion arriving before the creation it follows (recovered out of order).
    store.apply(List.of(delete("b", 2, 150, "150-0")));
    store.apply(List.of(upsert("b", 1, 120, "x", "121-0")));
    assertThat(job("b")).containsEntry("deleted", "t").containsEntry("version", "2");
  }

  @Test
  void aNulCharacterThatPostgresCannotHoldIsStoredAsAReplacementNotAPoisonedBatch()
      throws SQLException {
    // Redis and the API hold U+0000 (a JSON string may carry it); PostgreSQL's text cannot, and
    // one such value used to fail every batch it was in, for ever.
    SyncEvent job = upsert("nul", 1, 100, "a\u0000b", "10-0");
    SyncEvent end =
        parser.parse(
            0,
            "11-0",
            body(
                "type", "TRIGGER_UPDATED",
                "triggerId", "nul:5",
                "jobId", "nul",
                "state", "FAIL",
                "endedMs", "7",
                "message", "handler said \u0000",
                "ts", "7"));

    store.apply(List.of(job, end));

    assertThat(job("nul")).containsEntry("params", "a\uFFFDb");
    assertThat(rows.rows("kairos_trigger", "trigger_id").get("nul:5"))
        .containsEntry("message", "handler said \uFFFD");
  }

  @Test
  void unknownAndMalformedEventsAreSkippedNotFatal() throws SQLException {
    SyncEvent unknown = parser.parse(0, "1-0", body("type", "SOMETHING_NEW", "x", "1"));
    SyncEvent malformed = parser.parse(0, "2-0", body("type", "TRIGGER_UPDATED", "jobId", "j"));
    SyncEvent nil = parser.parse(0, "3-0", null);
    assertThat(List.of(unknown, malformed, nil)).allMatch(e -> e instanceof SyncEvent.Unknown);
    store.apply(List.of(unknown, malformed, nil));
    assertThat(rows.count("SELECT count(*) FROM kairos_trigger")).isZero();
  }
}
