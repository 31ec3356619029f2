package dev.kairos.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.coordinator.assign.ConsistentHashAssigner;
import dev.kairos.coordinator.assign.StaticLiveNodes;
import dev.kairos.coordinator.scan.DueFireScanner;
import dev.kairos.coordinator.scan.ScanConfig;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.schedule.FireWindow;
import dev.kairos.devinfra.EmbeddedPostgreSql;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.wheel.WheelNotifier;
import dev.kairos.sync.rebuild.RebuildKeys;
import dev.kairos.sync.rebuild.RedisRebuilder;
import dev.kairos.sync.rebuild.ShardInitialiser;
import dev.kairos.sync.worker.Backoff;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The node's shard gate on a real Redis Cluster and PostgreSQL: what is scanned while shards lack
 * their initialised marker, with PostgreSQL up, down, and coming back.
 */
@RealInfra(redis = RedisMode.CLUSTER, postgres = true)
class ShardInitialiserIT {

  private static final int JOBS = 40;
  private final EmbeddedRedisCluster cluster;
  private final EmbeddedPostgreSql pg;
  private final List<AutoCloseable> closeables = new ArrayList<>();
  private SyncFixture fx;
  private ScriptedTraffic traffic;
  private SimpleMeterRegistry meters;

  ShardInitialiserIT(EmbeddedRedisCluster cluster, EmbeddedPostgreSql pg) {
    this.cluster = cluster;
    this.pg = pg;
  }

  @BeforeEach
  void setUp() throws Exception {
    fx = new SyncFixture(cluster, pg);
    traffic = new ScriptedTraffic(fx.redis, fx.keys);
    meters = new SimpleMeterRegistry();
    rebuilder().ensureInitialised(SyncFixture.SHARDS); // PostgreSQL empty: markers only
    for (int i = 0; i < JOBS; i++) {
      traffic.jobs.create(everyMinute("si" + i));
    }
    fx.worker("node-a").start();
    SyncFixture.await(
        Duration.ofSeconds(60),
        JOBS + " jobs in PostgreSQL",
        () ->
            new RedisVsPostgres(fx.redis, fx.keys, fx.dataSource)
                    .count("SELECT count(*) FROM kairos_job")
                == JOBS);
  }

  @AfterEach
  void tearDown() throws Exception {
    if (!pg.isRunning()) {
      pg.start();
    }
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
    fx.close();
  }

  private static JobDefinition everyMinute(String id) {
    return JobDefinition.builder(id).app("billing").handler("report").cron("0 * * * * *").build();
  }

  private RedisRebuilder rebuilder() {
    return new RedisRebuilder(
        fx.redis, fx.dataSource, System::currentTimeMillis, Duration.ofSeconds(10));
  }

  private ShardInitialiser started() {
    ShardInitialiser init =
        new ShardInitialiser(
            fx.redis,
            rebuilder(),
            () -> SyncFixture.SHARDS,
            Duration.ofMillis(100),
            Duration.ofSeconds(5),
            new Backoff(Duration.ofMillis(100), Duration.ofMillis(400)),
            meters);
    closeables.add(init);
    init.start();
    return init;
  }

  private TreeSet<Integer> shardsOf(int victim) {
    TreeSet<Integer> shards = new TreeSet<>();
    for (int s = 0; s < SyncFixture.SHARDS; s++) {
      if (cluster.nodeOwning(RebuildKeys.initialised(s)) == victim) {
        shards.add(s);
      }
    }
    return shards;
  }

  private String jobOn(TreeSet<Integer> shards, boolean inside, String prefix) {
    for (int i = 0; ; i++) {
      String id = prefix + i;
      if (shards.contains(fx.keys.shardOf(id)) == inside) {
        return id;
      }
    }
  }

  private boolean hasJob(String id) {
    return fx.redis.sync().exists(RedisKeys.job(fx.keys.shardOf(id), id)) == 1;
  }

  @Test
  void lostMasterShardsAreNotScannedWhilePostgresIsDownAndAreRebuiltWhenItReturns()
      throws Exception {
    int victim = cluster.nodeOwning(RebuildKeys.initialised(0));
    TreeSet<Integer> lost = shardsOf(victim);
    assertThat(lost.size()).isLessThan(SyncFixture.SHARDS);
    pg.stop();
    cluster.flushNode(victim);
    ShardInitialiser init = started();

    assertThat(new TreeSet<>(init.notReadyShards()))
        .as("only the lost shards wait")
        .isEqualTo(lost);
    // Jobs written through the API during the outage: one on a lost shard, one elsewhere.
    String waiting = jobOn(lost, true, "during-");
    String running = jobOn(lost, false, "during-");
    traffic.jobs.create(everyMinute(waiting));
    traffic.jobs.create(everyMinute(running));
    SyncFixture.await(
        Duration.ofSeconds(20),
        "a failed rebuild attempt while PostgreSQL is down",
        () -> meters.counter("kairos.rebuild.failures").count() > 0);
    assertThat(new TreeSet<>(init.notReadyShards())).isEqualTo(lost);
    assertThat(meters.get("kairos.shards.not.ready").gauge().value()).isEqualTo(lost.size());
    for (int s : lost) {
      assertThat(fx.redis.sync().exists(RebuildKeys.lock(s)))
          .as("a failed rebuild releases shard %d's lock", s)
          .isZero();
    }

    DueFireScanner scanner =
        new DueFireScanner(
            fx.redis,
            fx.keys,
            ScanConfig.builder()
                .preRead(Duration.ofMinutes(2)) // reaches the next minute's fire of every job
                .maxBatchesPerShard(10)
                .eventsMaxLen(10_000)
                .build(),
            System::currentTimeMillis,
            StaticLiveNodes.of("node-x"),
            new ConsistentHashAssigner(),
            WheelNotifier.NONE,
            new FireWindow(),
            init,
            meters);
    scanner.scan(1);
    assertThat(wheelHolds(running)).as("a ready shard is scanned").isTrue();
    assertThat(wheelHolds(waiting)).as("a shard without its marker is not scanned").isFalse();
    assertThat(meters.counter("kairos.scan.shards.not.ready").count()).isEqualTo(lost.size());

    pg.start();
    SyncFixture.await(
        Duration.ofSeconds(60), "every shard ready", () -> init.notReadyShards().isEmpty());
    for (int i = 0; i < JOBS; i++) {
      assertThat(hasJob("si" + i)).as("job si%d back in Redis", i).isTrue();
    }
    scanner.scan(1);
    assertThat(wheelHolds(waiting)).as("scanned once rebuilt").isTrue();
    assertThat(meters.counter("kairos.rebuild.shards").count()).isEqualTo(lost.size());
  }

  @Test
  void emptyRedisIsScheduledAtOnceAndOlderJobsReturnWhenPostgresAnswers() throws Exception {
    pg.stop();
    for (int i = 0; i < cluster.size(); i++) {
      cluster.flushNode(i);
    }
    fx.redis.sync().hset(RedisKeys.META, "shards", Integer.toString(SyncFixture.SHARDS));
    ShardInitialiser init = started();
    assertThat(init.notReadyShards()).as("a new cluster never waits for PostgreSQL").isEmpty();
    assertThat(init.provisionalShards()).isEqualTo(SyncFixture.SHARDS);
    String created = "after-flush";
    traffic.jobs.create(everyMinute(created));

    pg.start();
    SyncFixture.await(
        Duration.ofSeconds(60),
        "provisional markers completed",
        () -> init.provisionalShards() == 0);
    for (int i = 0; i < JOBS; i++) {
      assertThat(hasJob("si" + i)).as("job si%d restored", i).isTrue();
    }
    assertThat(hasJob(created)).isTrue();
    IntStream.range(0, SyncFixture.SHARDS)
        .forEach(
            s ->
                assertThat(fx.redis.sync().get(RebuildKeys.initialised(s)))
                    .as("shard %d marker final", s)
                    .doesNotStartWith(RebuildKeys.PROVISIONAL));
  }

  @Test
  void aMasterFlushedWhileRunningIsTakenOutOfTheScanAndRebuilt() {
    ShardInitialiser init = started();
    assertThat(init.notReadyShards()).isEmpty();
    int victim = cluster.nodeOwning(RebuildKeys.initialised(1));
    TreeSet<Integer> lost = shardsOf(victim);
    cluster.flushNode(victim);
    SyncFixture.await(
        Duration.ofSeconds(60),
        "the lost shards rebuilt and ready again",
        () ->
            meters.counter("kairos.rebuild.shards").count() == lost.size()
                && init.notReadyShards().isEmpty());
    for (int i = 0; i < JOBS; i++) {
      assertThat(hasJob("si" + i)).as("job si%d in Redis", i).isTrue();
    }
  }

  private boolean wheelHolds(String jobId) {
    int s = fx.keys.shardOf(jobId);
    return fx.redis.sync().zrange(RedisKeys.wheel(s, "node-x"), 0, -1).stream()
        .anyMatch(trigger -> trigger.startsWith(jobId + ":"));
  }
}
