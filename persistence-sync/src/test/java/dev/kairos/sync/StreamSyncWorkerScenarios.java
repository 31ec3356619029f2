package dev.kairos.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.TriggerState;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedPostgreSql;
import dev.kairos.sync.event.SyncEvent;
import dev.kairos.sync.worker.SchemaMigrator;
import dev.kairos.sync.worker.ShardLag;
import dev.kairos.sync.worker.StreamSyncWorker;
import dev.kairos.sync.worker.SyncFaults;
import dev.kairos.sync.worker.SyncHealth;
import dev.kairos.sync.worker.SyncLagSnapshot;
import dev.kairos.sync.worker.SyncMetrics;
import io.lettuce.core.Consumer;
import io.lettuce.core.XReadArgs;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sync worker on real Redis and PostgreSQL, fed by the real scripts. Run on a Redis Cluster
 * ({@link StreamSyncWorkerIT}: one read per shard) and on one server ({@link
 * StreamSyncWorkerStandaloneIT}: one read over every shard).
 */
abstract class StreamSyncWorkerScenarios {

  private static final Logger log = LoggerFactory.getLogger(StreamSyncWorkerScenarios.class);
  private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(90);

  final EmbeddedPostgreSql pg;
  private SyncFixture fx;
  private ScriptedTraffic traffic;
  private RedisVsPostgres compare;
  private final List<String> live = new ArrayList<>();
  private final List<String> deleted = new ArrayList<>();

  /** Triggers that reached a final state: each is one row of PostgreSQL's history. */
  private final List<String> ended = new ArrayList<>();

  /** Of those, the scheduled fires that succeeded: once synced, Redis keeps only a tombstone. */
  private final List<String> succeeded = new ArrayList<>();

  private int jobSeq;

  StreamSyncWorkerScenarios(EmbeddedPostgreSql pg) {
    this.pg = pg;
  }

  /** A fresh fixture on the Redis under test. */
  abstract SyncFixture fixture();

  @BeforeEach
  void setUp() {
    fx = fixture();
    traffic = new ScriptedTraffic(fx.redis, fx.keys);
    compare = new RedisVsPostgres(fx.redis, fx.keys, fx.dataSource);
  }

  @AfterEach
  void tearDown() throws Exception {
    if (!pg.isRunning()) {
      pg.start();
    }
    fx.close();
  }

  /**
   * Jobs created, claimed twice, their triggers run to an end (or NO_EXECUTOR, or left CLAIMED or
   * DISPATCHED, which write no event), then some jobs updated, disabled and deleted: every kind of
   * event the scripts write.
   */
  private void produce(int jobCount) {
    List<JobDefinition> created = new ArrayList<>();
    for (int j = 0; j < jobCount; j++) {
      created.add(traffic.createJob("job" + (jobSeq++)));
    }
    int i = 0;
    for (JobDefinition job : created) {
      for (ScriptedTraffic.Trigger t : traffic.claim(job.id(), 2, "node-" + (i % 3))) {
        if (i % 25 == 1) {
          traffic.noExecutor(t);
          ended.add(t.id());
        } else if (i % 25 == 2) {
          traffic.dispatch(t, "1");
        } else if (i % 25 != 3) { // i % 25 == 3 stays CLAIMED
          if (traffic.runToEnd(t, i) == TriggerState.SUCCESS) {
            succeeded.add(t.id());
          }
          ended.add(t.id());
        }
        i++;
      }
    }
    for (int j = 0; j < created.size(); j++) {
      JobDefinition job = traffic.jobs.get(created.get(j).id()).orElseThrow();
      switch (j % 12) {
        case 0, 1, 2 ->
            traffic.jobs.update(
                job.toBuilder().params("{\"n\":" + (j + 2) + "}").build(), job.version());
        case 3 -> traffic.jobs.disable(job.id());
        case 4 -> {
          traffic.jobs.delete(job.id());
          deleted.add(job.id());
          continue;
        }
        default -> {}
      }
      live.add(job.id());
    }
  }

  private void awaitInSync(String what) {
    SyncFixture.await(
        SYNC_TIMEOUT,
        what,
        () ->
            compare.count("SELECT count(*) FROM kairos_trigger") == ended.size()
                && compare.count(
                        "SELECT count(*) FROM kairos_job WHERE deleted"
                            + " OR (job_id, version) IN (VALUES "
                            + versions()
                            + ")")
                    == live.size() + deleted.size());
    compare.assertJobsEqual(live, deleted);
    List<String> kept = ended.stream().filter(id -> !succeeded.contains(id)).toList();
    compare.assertTriggersEqual(kept, ended);
    // The compaction follows the commit of the same round: poll until it has landed.
    SyncFixture.await(
        Duration.ofSeconds(30), "succeeded records compacted", () -> compare.compacted(succeeded));
    compare.assertSucceededRows(succeeded);
  }

  /** (job id, current Redis version) of every live job, as SQL VALUES rows. */
  private String versions() {
    StringBuilder sb = new StringBuilder();
    for (String id : live) {
      String v = fx.redis.sync().hget(RedisKeys.job(fx.keys.shardOf(id), id), "version");
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append("('").append(id).append("',").append(v).append("::bigint)");
    }
    return sb.toString();
  }

  private long pendingTotal() {
    long pending = 0;
    for (int s = 0; s < SyncFixture.SHARDS; s++) {
      pending += fx.redis.sync().xpending(RedisKeys.events(s), "kairos-sync").getCount();
    }
    return pending;
  }

  @Test
  void thousandsOfScriptedEventsLandFieldByFieldEqualToRedis() {
    produce(1200);
    long events = traffic.streamEntries();
    // One event per job write and one per trigger that ended.
    assertThat(events).isGreaterThanOrEqualTo(3_000);
    new SchemaMigrator(fx.dataSource).migrate();

    SyncMetrics metrics = new SyncMetrics(new SimpleMeterRegistry());
    StreamSyncWorker worker = fx.worker(SyncFixture.fastConfig("node-a"), metrics, SyncFaults.NONE);
    long began = System.nanoTime();
    worker.start();
    SyncFixture.await(
        SYNC_TIMEOUT, "all " + events + " events applied", () -> metrics.appliedCount() >= events);
    double seconds = (System.nanoTime() - began) / 1e9;
    log.info(
        "THROUGHPUT: {} events into PostgreSQL in {} s = {} events/s",
        events,
        String.format("%.2f", seconds),
        Math.round(events / seconds));

    assertThat(metrics.appliedCount()).isEqualTo((double) events);
    assertThat(metrics.unknownCount()).isZero();
    awaitInSync("PostgreSQL equal to Redis");
    assertThat(pendingTotal()).isZero();
    SyncFixture.await(
        Duration.ofSeconds(30),
        "acknowledged entries trimmed",
        () -> traffic.streamEntries() < events / 10);
  }

  @Test
  void crashBetweenCommitAndAckIsReplayedByAnotherConsumerWithoutDuplicates() {
    crashAndRecover(true);
  }

  @Test
  void crashBetweenReadAndCommitIsRecoveredByAnotherConsumer() {
    crashAndRecover(false);
  }

  private void crashAndRecover(boolean afterCommit) {
    produce(120);
    AtomicBoolean crashed = new AtomicBoolean();
    SyncFaults crashOnce =
        new SyncFaults() {
          @Override
          public void afterRead(List<SyncEvent> events) {
            if (!afterCommit && crashed.compareAndSet(false, true)) {
              throw new SyncFaults.SimulatedCrash("between read and commit");
            }
          }

          @Override
          public void afterCommit(List<SyncEvent> events) {
            if (afterCommit && crashed.compareAndSet(false, true)) {
              throw new SyncFaults.SimulatedCrash("between commit and ack");
            }
          }
        };
    StreamSyncWorker doomed =
        fx.worker(
            SyncFixture.fastConfig("node-a"),
            new SyncMetrics(new SimpleMeterRegistry()),
            crashOnce);
    doomed.start();
    SyncFixture.await(Duration.ofSeconds(30), "worker a crashed", () -> !doomed.isRunning());
    long stranded = pendingTotal();
    assertThat(stranded).as("entries left pending by the dead consumer").isPositive();
    long rowsAtCrash = compare.count("SELECT count(*) FROM kairos_trigger");
    if (afterCommit) {
      assertThat(rowsAtCrash).as("the committed round is in PostgreSQL").isPositive();
    } else {
      assertThat(rowsAtCrash).as("nothing committed").isZero();
    }

    produce(60); // more traffic while nobody syncs
    SyncMetrics metricsB = new SyncMetrics(new SimpleMeterRegistry());
    StreamSyncWorker survivor =
        fx.worker(SyncFixture.fastConfig("node-b"), metricsB, SyncFaults.NONE);
    survivor.start();
    awaitInSync("node-b recovers node-a's pending entries");
    // Safety: after a crash between commit and ack, PostgreSQL can equal Redis before node-b has
    // claimed anything (the stranded rows were committed); only an empty pending list proves the
    // dead consumer's entries were taken over, so wait for it before counting the claims.
    SyncFixture.await(Duration.ofSeconds(10), "nothing pending", () -> pendingTotal() == 0);
    assertThat(metricsB.claimedCount())
        .as("entries taken over by XAUTOCLAIM")
        .isGreaterThanOrEqualTo((double) stranded);
  }

  @Test
  void postgresDownWhileEventsAreProducedThenTheBacklogDrains() {
    SyncMetrics metrics = new SyncMetrics(new SimpleMeterRegistry());
    StreamSyncWorker worker = fx.worker(SyncFixture.fastConfig("node-a"), metrics, SyncFaults.NONE);
    worker.start();
    produce(60);
    awaitInSync("first traffic synced");

    pg.stop();
    long began = System.nanoTime();
    produce(120); // the scripts (the trigger path) never touch PostgreSQL
    log.info(
        "produced while PostgreSQL was down in {} ms", (System.nanoTime() - began) / 1_000_000);
    SyncFixture.await(
        Duration.ofSeconds(30),
        "the worker noticed PostgreSQL is down",
        () -> metrics.databaseFailureCount() > 0);
    assertThat(worker.isRunning()).as("worker survives PostgreSQL outage").isTrue();

    pg.start();
    awaitInSync("backlog drained after PostgreSQL came back");
    assertThat(worker.isRunning()).isTrue();
  }

  @Test
  void lagIsReportedPerShardWhileNothingSyncsAndClearsAfterwards() {
    produce(40);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    SyncHealth health =
        new SyncHealth(
            fx.redis, "kairos-sync", System::currentTimeMillis, registry, Duration.ofMillis(1));
    SyncFixture.await(
        Duration.ofSeconds(10),
        "lag seen",
        () -> health.refresh().shards().size() == 8 && health.isLagging());
    assertThat(registry.find("kairos.sync.lag.ms").gauges()).hasSize(SyncFixture.SHARDS);
    assertThat(registry.find("kairos.sync.pending").gauges()).hasSize(SyncFixture.SHARDS);
    SyncLagSnapshot lagging = health.snapshot();
    assertThat(lagging.sampledAtMs()).isPositive();
    assertThat(lagging.thresholdMs()).isEqualTo(1);
    assertThat(lagging.shards()).extracting(ShardLag::shard).isSorted();
    assertThat(lagging.laggingShards()).isNotEmpty();
    assertThat(lagging.laggingShards()).allMatch(l -> l.oldestUnsyncedAgeMs() > 1);
    assertThat(registry.get("kairos.sync.lag.max.ms").gauge().value())
        .isEqualTo((double) lagging.maxLagMs())
        .isPositive();

    fx.worker("node-a").start();
    awaitInSync("synced");
    // The ack follows the commit: poll until it has landed.
    SyncFixture.await(
        Duration.ofSeconds(10),
        "no lag and nothing pending",
        () ->
            health.refresh().shards().stream().allMatch(l -> l.pending() == 0)
                && health.maxLagMs() == 0);
    assertThat(health.snapshot().lagging()).isFalse();
    assertThat(health.snapshot().totalPending()).isZero();
    assertThat(registry.get("kairos.sync.pending.all").gauge().value()).isZero();
  }

  @Test
  void entriesDeliveredButNotAcknowledgedArePendingAndTheOldestSetsTheLag() {
    produce(20);
    long readAtMs = System.currentTimeMillis();
    // A worker that read every shard and died before acknowledging anything.
    long delivered = 0;
    for (int s = 0; s < SyncFixture.SHARDS; s++) {
      String stream = RedisKeys.events(s);
      fx.redis.sync().xgroupCreate(XReadArgs.StreamOffset.from(stream, "0"), "kairos-sync");
      delivered +=
          fx.redis
              .sync()
              .xreadgroup(
                  Consumer.from("kairos-sync", "dead-worker"),
                  XReadArgs.StreamOffset.lastConsumed(stream))
              .size();
    }
    SyncHealth health =
        new SyncHealth(
            fx.redis,
            "kairos-sync",
            System::currentTimeMillis,
            new SimpleMeterRegistry(),
            Duration.ofHours(1));

    SyncLagSnapshot snapshot = health.refresh();

    assertThat(delivered).isPositive();
    assertThat(snapshot.totalPending()).isEqualTo(delivered);
    for (ShardLag lag : snapshot.shards()) {
      String stream = RedisKeys.events(lag.shard());
      assertThat(lag.pending())
          .isEqualTo(lag.streamLength())
          .isEqualTo(fx.redis.sync().xlen(stream));
      if (lag.pending() > 0) {
        // The oldest pending entry was written before the read, so its age covers the time since.
        assertThat(lag.oldestUnsyncedAgeMs())
            .isPositive()
            .isGreaterThanOrEqualTo(snapshot.sampledAtMs() - readAtMs);
      } else {
        assertThat(lag.oldestUnsyncedAgeMs()).isZero();
      }
    }
  }

  @Test
  void workerStartsWithoutPostgresAndMigratesWhenItAppears() {
    pg.stop();
    SyncMetrics metrics = new SyncMetrics(new SimpleMeterRegistry());
    StreamSyncWorker worker = fx.worker(SyncFixture.fastConfig("node-a"), metrics, SyncFaults.NONE);
    worker.start(); // returns at once: PostgreSQL is not on the start-up path
    produce(30);
    SyncFixture.await(
        Duration.ofSeconds(30), "a failed attempt", () -> metrics.databaseFailureCount() > 0);
    assertThat(worker.schemaReady()).isFalse();
    pg.start();
    awaitInSync("migrated and synced once PostgreSQL is up");
    assertThat(worker.schemaReady()).isTrue();
  }
}
