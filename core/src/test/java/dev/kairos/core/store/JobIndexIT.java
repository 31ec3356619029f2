package dev.kairos.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The ordered job indexes on a real Redis Cluster: what the job scripts write, what {@link
 * JobIndex} reads back across shards, and how {@link JobIndexRepair} gives a shard written by an
 * older version its indexes. The Redis is shared with other classes, so every assertion looks at
 * this class's ids (one prefix) and apps only.
 */
@RealInfra(redis = RedisMode.CLUSTER)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JobIndexIT {

  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

  private final EmbeddedRedisCluster cluster;
  private final RedisKeys keys = new RedisKeys(16);
  private final SettableClock clock = new SettableClock(1_750_000_000_000L);
  private KairosRedis redis;
  private JobStore store;
  private JobIndex index;

  JobIndexIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @BeforeAll
  void connect() {
    redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(5));
    store = new JobStore(redis, keys, clock, 1_000);
    index = new JobIndex(redis, keys, Duration.ofSeconds(5));
  }

  @AfterAll
  void disconnect() {
    redis.close();
  }

  private static JobDefinition job(String id, String app) {
    return JobDefinition.builder(id).app(app).handler("h").fixedRate(60_000).build();
  }

  /** Creates {@code n} jobs with ids {@code <prefix><i>}, spread over {@code apps}. */
  private TreeSet<String> create(String prefix, int n, List<String> apps) {
    List<CompletableFuture<JobDefinition>> writes = new ArrayList<>();
    TreeSet<String> ids = new TreeSet<>();
    for (int i = 0; i < n; i++) {
      String id = prefix + i;
      ids.add(id);
      writes.add(store.createAsync(job(id, apps.get(i % apps.size()))));
    }
    writes.forEach(CompletableFuture::join);
    return ids;
  }

  private List<String> walk(IndexRange range, int page) {
    List<String> out = new ArrayList<>();
    MergedIdWalker walker = index.walk(range, null);
    while (!walker.exhausted()) {
      out.addAll(walker.next(page));
    }
    return out;
  }

  @Test
  void idsOfEveryShardAreReadBackInOrderWholeByAppAndByPrefix() {
    String prefix = "ix-" + RUN + "-";
    List<String> apps = List.of("ixa-" + RUN, "ixb-" + RUN, "ixc-" + RUN);
    TreeSet<String> ids = create(prefix, 300, apps);

    assertThat(walk(new IndexRange(null, prefix), 7)).containsExactlyElementsOf(ids);
    assertThat(index.count(new IndexRange(null, prefix))).isEqualTo(300);
    List<String> ofB =
        ids.stream()
            .filter(id -> Integer.parseInt(id.substring(prefix.length())) % 3 == 1)
            .toList();
    assertThat(walk(IndexRange.ofApp(apps.get(1)), 11)).containsExactlyElementsOf(ofB);
    assertThat(index.count(IndexRange.ofApp(apps.get(1)))).isEqualTo(100);
    assertThat(walk(new IndexRange(apps.get(1), prefix + "1"), 5))
        .containsExactlyElementsOf(ofB.stream().filter(id -> id.startsWith(prefix + "1")).toList());
    assertThat(countsOf("ix"))
        .isEqualTo(Map.of(apps.get(0), 100L, apps.get(1), 100L, apps.get(2), 100L));

    // A walk from a cursor continues after it, also across a delete of the cursor's job.
    String cursor = ids.stream().skip(149).findFirst().orElseThrow();
    store.delete(cursor);
    assertThat(index.walk(new IndexRange(null, prefix), cursor).next(300))
        .containsExactlyElementsOf(ids.tailSet(cursor, false));
    assertThat(index.count(new IndexRange(null, prefix))).isEqualTo(299);
  }

  /**
   * The per-app counts of the apps of one test whose names start with {@code appPrefix} (the other
   * tests' apps, and other classes' in the shared Redis, are left out whatever order they ran in).
   */
  private Map<String, Long> countsOf(String appPrefix) {
    return index.countPerApp().entrySet().stream()
        .filter(e -> e.getKey().startsWith(appPrefix) && e.getKey().endsWith(RUN))
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
  }

  @Test
  void aShardOfAnOlderVersionGetsItsIndexesFromItsJobSetAtStart() {
    String prefix = "legacy-" + RUN + "-";
    String app = "legacy-" + RUN;
    TreeSet<String> ids = create(prefix, 200, List.of(app));
    // As an older version left them: ids in the legacy SET, none in the ordered indexes.
    for (String id : ids) {
      int s = keys.shardOf(id);
      redis.sync().zrem(RedisKeys.jobIds(s), id);
      redis.sync().zrem(RedisKeys.appJobIds(s), IndexRange.appMember(app, id));
      redis.sync().sadd(RedisKeys.legacyJobIndex(s), id);
    }
    // In a shard with a legacy SET: a job an older node deleted (still in the indexes) and one it
    // moved to another app (its old app's entry left behind).
    int shard = keys.shardOf(ids.first());
    String deleted = idInShard(prefix + "deleted-", shard);
    store.create(job(deleted, app));
    redis.sync().del(RedisKeys.job(shard, deleted));
    String moved = idInShard(prefix + "moved-", shard);
    store.create(job(moved, "before-" + RUN));
    redis.sync().hset(RedisKeys.job(shard, moved), "app", app);
    redis.sync().sadd(RedisKeys.legacyJobIndex(shard), moved);
    ids.add(moved);
    assertThat(walk(new IndexRange(null, prefix), 50)).containsExactly(deleted, moved);

    JobIndexRepair.Report report = new JobIndexRepair(redis, keys, false).run();

    assertThat(report.legacyShards()).contains(shard);
    assertThat(report.indexed()).isGreaterThanOrEqualTo(201);
    assertThat(report.removed())
        .as("deleted's two entries, moved's old app")
        .isGreaterThanOrEqualTo(3);
    for (int s = 0; s < keys.shards(); s++) {
      assertThat(redis.sync().exists(RedisKeys.legacyJobIndex(s))).as("shard %d", s).isZero();
    }
    assertThat(walk(new IndexRange(null, prefix), 50)).containsExactlyElementsOf(ids);
    assertThat(walk(IndexRange.ofApp(app), 50)).containsExactlyElementsOf(ids);
    assertThat(countsOf("legacy-").get(app)).isEqualTo(201L);
    assertThat(countsOf("before-")).as("the moved job's old app").isEmpty();

    // Run again (another node starting): nothing left to do.
    JobIndexRepair.Report again = new JobIndexRepair(redis, keys, false).run();
    assertThat(again.legacyShards()).isEmpty();
    assertThat(again.verifiedShards()).isEmpty();
  }

  @Test
  void verifyingEveryShardDropsEntriesOfJobsThatAreGone() {
    String prefix = "stale-" + RUN + "-";
    String app = "stale-" + RUN;
    TreeSet<String> ids = create(prefix, 40, List.of(app));
    String gone = ids.first();
    redis.sync().del(RedisKeys.job(keys.shardOf(gone), gone));

    JobIndexRepair.Report report = new JobIndexRepair(redis, keys, true).run();

    assertThat(report.verifiedShards()).hasSize(keys.shards());
    assertThat(walk(new IndexRange(null, prefix), 50))
        .containsExactlyElementsOf(ids.tailSet(gone, false));
    assertThat(walk(IndexRange.ofApp(app), 50)).containsExactlyElementsOf(ids.tailSet(gone, false));
  }

  @Test
  void theRepairStartsOnItsOwnThreadAndCloses() {
    try (JobIndexRepair repair = new JobIndexRepair(redis, keys, false)) {
      repair.start();
      org.awaitility.Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertThat(repair.isDone()).isTrue());
    }
  }

  private String idInShard(String prefix, int shard) {
    for (int i = 0; ; i++) {
      if (keys.shardOf(prefix + i) == shard) {
        return prefix + i;
      }
    }
  }
}
