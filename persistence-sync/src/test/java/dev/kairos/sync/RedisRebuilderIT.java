package dev.kairos.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.MisfireStrategy;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.EnabledApps;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.EmbeddedPostgreSql;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.sync.rebuild.RebuildKeys;
import dev.kairos.sync.rebuild.RebuildReport;
import dev.kairos.sync.rebuild.RedisRebuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@RealInfra(redis = RedisMode.CLUSTER, postgres = true)
class RedisRebuilderIT {

  private final EmbeddedRedisCluster cluster;
  private final EmbeddedPostgreSql pg;
  private SyncFixture fx;
  private ScriptedTraffic traffic;
  private final Map<String, Map<String, String>> hashes = new HashMap<>();
  private final Map<String, Double> dueScores = new HashMap<>();

  RedisRebuilderIT(EmbeddedRedisCluster cluster, EmbeddedPostgreSql pg) {
    this.cluster = cluster;
    this.pg = pg;
  }

  @BeforeEach
  void setUp() throws Exception {
    fx = new SyncFixture(cluster, pg);
    traffic = new ScriptedTraffic(fx.redis, fx.keys);
    // Fresh cluster: PostgreSQL is empty, every shard gets its marker and nothing else.
    RebuildReport first = rebuilder(fx.redis, System::currentTimeMillis).ensureInitialised(8);
    assertThat(first.restoredJobs()).isZero();
    assertThat(first.rebuiltShards()).hasSize(SyncFixture.SHARDS);

    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      String id = "rb" + i;
      JobDefinition.Builder b =
          JobDefinition.builder(id).app("billing").handler("report").zone("UTC").params("{}");
      switch (i % 5) {
        case 0 -> b.cron("0 * * * * *").misfire(MisfireStrategy.DO_NOTHING, 5_000);
        case 1 -> b.cron("0 * * * * *").misfire(MisfireStrategy.FIRE_ONCE_NOW, 5_000);
        case 2 -> b.fixedRate(7_000).misfire(MisfireStrategy.DO_NOTHING, 5_000);
        case 3 -> b.cron("0 0 * * * *").enabled(false);
        default -> b.schedule(dev.kairos.core.model.ScheduleType.API, "");
      }
      if (i % 7 == 0) {
        // child lists round-trip through PostgreSQL (ids of later jobs: no cycle)
        b.childJobIds(List.of("rb" + (i + 1), "rb" + (i + 2)));
      }
      if (i % 3 == 0) {
        // description, owner and the job's alarm recipients round-trip through PostgreSQL
        b.description("rebuilt job " + i + "\nsecond line")
            .owner("owner-" + i)
            .alarmEmails(List.of("a" + i + "@example.com", "b@example.org"))
            .alarmWebhooks(List.of("https://hooks.example.com/" + i + "?x=1,2"))
            .calendars(List.of("holidays", "weekends"));
      }
      traffic.jobs.create(b.build());
      ids.add(id);
    }
    for (String id : ids) {
      int s = fx.keys.shardOf(id);
      hashes.put(id, fx.redis.sync().hgetall(RedisKeys.job(s, id)));
      Double score = fx.redis.sync().zscore(RedisKeys.due(s), id);
      if (score != null) {
        dueScores.put(id, score);
      }
    }
    fx.worker("node-a").start();
    SyncFixture.await(
        Duration.ofSeconds(60),
        "60 jobs in PostgreSQL",
        () ->
            new RedisVsPostgres(fx.redis, fx.keys, fx.dataSource)
                    .count("SELECT count(*) FROM kairos_job")
                == 60);
  }

  @AfterEach
  void tearDown() throws Exception {
    fx.close();
  }

  private RedisRebuilder rebuilder(KairosRedis redis, dev.kairos.core.time.KairosClock clock) {
    return new RedisRebuilder(redis, fx.dataSource, clock, Duration.ofSeconds(10));
  }

  private void flushAll() {
    for (int i = 0; i < cluster.size(); i++) {
      cluster.flushNode(i);
    }
  }

  private Map<String, String> withoutNextFire(Map<String, String> hash) {
    Map<String, String> copy = new HashMap<>(hash);
    copy.remove("nextFireMs");
    return copy;
  }

  @Test
  void flushedRedisIsRebuiltWithTheSameJobsAndNextFireTimes() throws Exception {
    flushAll();
    RebuildReport report = rebuilder(fx.redis, System::currentTimeMillis).ensureInitialised(8);

    assertThat(report.restoredJobs()).isEqualTo(60);
    assertThat(report.rebuiltShards()).hasSize(SyncFixture.SHARDS);
    for (var e : hashes.entrySet()) {
      String id = e.getKey();
      int s = fx.keys.shardOf(id);
      assertThat(withoutNextFire(fx.redis.sync().hgetall(RedisKeys.job(s, id))))
          .as("job %s", id)
          .isEqualTo(withoutNextFire(e.getValue()));
      assertThat(fx.redis.sync().zscore(RedisKeys.jobIds(s), id)).isEqualTo(0.0);
      assertThat(fx.redis.sync().zscore(RedisKeys.appJobIds(s), e.getValue().get("app") + ":" + id))
          .as("per-app index entry of %s", id)
          .isEqualTo(0.0);
      // Never claimed and rebuilt within the misfire threshold: the same next fire as before.
      assertThat(fx.redis.sync().zscore(RedisKeys.due(s), id))
          .as("due score of %s", id)
          .isEqualTo(dueScores.get(id));
    }
    // 12 of the 60 are disabled; the rest count as billing's enabled jobs again.
    assertThat(new EnabledApps(fx.redis, fx.keys, 5_000).read()).isEqualTo(Map.of("billing", 48L));
  }

  @Test
  void rebuildLongAfterTheLastFireAppliesEachJobsMisfireStrategy() throws Exception {
    flushAll();
    long later = Instant.now().plus(Duration.ofMinutes(10)).toEpochMilli() / 1000 * 1000 + 250;
    SettableClock clock = new SettableClock(later);
    rebuilder(fx.redis, clock).ensureInitialised(8);

    long nextMinute = (later / 60_000 + 1) * 60_000;
    for (String id : hashes.keySet()) {
      int s = fx.keys.shardOf(id);
      Double score = fx.redis.sync().zscore(RedisKeys.due(s), id);
      int kind = Integer.parseInt(id.substring(2)) % 5;
      switch (kind) {
        case 0 -> assertThat(score).as("DO_NOTHING %s", id).isEqualTo((double) nextMinute);
        case 1 -> assertThat(score).as("FIRE_ONCE_NOW %s", id).isEqualTo((double) later);
        case 2 -> {
          long created = Long.parseLong(hashes.get(id).get("createdMs"));
          long expected = created + ((later - created) / 7_000 + 1) * 7_000;
          assertThat(score).as("fixed rate %s keeps its phase", id).isEqualTo((double) expected);
        }
        default -> assertThat(score).as("disabled or API %s", id).isNull();
      }
    }
  }

  @Test
  void aJobsLastFireComesFromItsSyncedTriggersNotOnlyItsOwnRow() throws Exception {
    // rb1 fires every minute with FIRE_ONCE_NOW: it owes the fire after its last one, and a fire
    // owed longer than its threshold would be fired at once instead.
    List<ScriptedTraffic.Trigger> fired = traffic.claim("rb1", 2, "node-1");
    for (int i = 0; i < fired.size(); i++) {
      traffic.runToEnd(fired.get(i), i + 1);
    }
    RedisVsPostgres compare = new RedisVsPostgres(fx.redis, fx.keys, fx.dataSource);
    SyncFixture.await(
        Duration.ofSeconds(60),
        "rb1's two fires in the history",
        () -> compare.count("SELECT count(*) FROM kairos_trigger WHERE job_id = 'rb1'") == 2);
    assertThat(compare.count("SELECT count(*) FROM kairos_job WHERE last_fire_ms IS NOT NULL"))
        .as("no job row learnt of the claims")
        .isZero();
    long lastFire = fired.get(1).fireMs();
    flushAll();

    SettableClock clock = new SettableClock(lastFire + 1_000);
    rebuilder(fx.redis, clock).ensureInitialised(8);

    int s = fx.keys.shardOf("rb1");
    assertThat(fx.redis.sync().zscore(RedisKeys.due(s), "rb1"))
        .as("the minute after the last synced fire, not the first fire misfired at once")
        .isEqualTo((double) (lastFire + 60_000));
    assertThat(fx.redis.sync().hget(RedisKeys.job(s, "rb1"), "lastFireMs"))
        .isEqualTo(Long.toString(lastFire));
  }

  @Test
  void twoNodesStartingTogetherRebuildEachShardOnce() throws Exception {
    flushAll();
    CountDownLatch go = new CountDownLatch(1);
    try (KairosRedis other = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(5))) {
      List<CompletableFuture<RebuildReport>> runs = new ArrayList<>();
      for (KairosRedis r : List.of(fx.redis, other)) {
        runs.add(
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    go.await();
                    return rebuilder(r, System::currentTimeMillis).ensureInitialised(8);
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                }));
      }
      go.countDown();
      RebuildReport a = runs.get(0).get();
      RebuildReport b = runs.get(1).get();
      assertThat(a.restoredJobs() + b.restoredJobs()).as("jobs restored in total").isEqualTo(60);
      assertThat(a.keptJobs() + b.keptJobs()).as("no job restored twice").isZero();
      List<Integer> all = new ArrayList<>(a.rebuiltShards());
      all.addAll(b.rebuiltShards());
      assertThat(all).as("each shard rebuilt once").doesNotHaveDuplicates();
      assertThat(new TreeSet<>(all)).hasSize(SyncFixture.SHARDS);
    }
  }

  @Test
  void flushingOneMasterRebuildsOnlyItsShards() throws Exception {
    int victim = cluster.nodeOwning(RebuildKeys.initialised(0));
    TreeSet<Integer> expected = new TreeSet<>();
    for (int s = 0; s < SyncFixture.SHARDS; s++) {
      if (cluster.nodeOwning(RebuildKeys.initialised(s)) == victim) {
        expected.add(s);
      }
    }
    assertThat(expected.size()).isLessThan(SyncFixture.SHARDS);
    cluster.flushNode(victim);

    RebuildReport report = rebuilder(fx.redis, System::currentTimeMillis).ensureInitialised(8);
    assertThat(new TreeSet<>(report.rebuiltShards())).isEqualTo(expected);
    long onVictim =
        hashes.keySet().stream().filter(id -> expected.contains(fx.keys.shardOf(id))).count();
    assertThat(report.restoredJobs()).isEqualTo((int) onVictim);
    for (String id : hashes.keySet()) {
      int s = fx.keys.shardOf(id);
      assertThat(withoutNextFire(fx.redis.sync().hgetall(RedisKeys.job(s, id))))
          .isEqualTo(withoutNextFire(hashes.get(id)));
    }
  }
}
