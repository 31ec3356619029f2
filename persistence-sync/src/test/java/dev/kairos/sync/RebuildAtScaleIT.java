package dev.kairos.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.MisfireStrategy;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.EmbeddedPostgreSql;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.sync.rebuild.RebuildReport;
import dev.kairos.sync.rebuild.RedisRebuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A lost Redis rebuilt from PostgreSQL at a size where doing it job by job would show (issue #33):
 * 50,000 jobs with a realistic mix are synced to PostgreSQL, Redis is emptied, and every job must
 * come back with the same definition, the same next fire and its index entries. The jobs and the
 * rebuild share one fixed clock, so "the same next fire" does not depend on how long the test runs.
 */
@RealInfra(redis = RedisMode.CLUSTER, postgres = true)
class RebuildAtScaleIT {

  private static final Logger log = LoggerFactory.getLogger(RebuildAtScaleIT.class);

  private static final int JOBS = 50_000;
  private static final int CHUNK = 1_000;

  private final EmbeddedRedisCluster cluster;
  private final EmbeddedPostgreSql pg;
  private SyncFixture fx;

  RebuildAtScaleIT(EmbeddedRedisCluster cluster, EmbeddedPostgreSql pg) {
    this.cluster = cluster;
    this.pg = pg;
  }

  @AfterEach
  void tearDown() throws Exception {
    fx.close();
  }

  /** Mostly hourly and daily crons at random minutes, some fixed-rate, some disabled, some API. */
  private static JobDefinition job(int i, ThreadLocalRandom random) {
    JobDefinition.Builder b =
        JobDefinition.builder("scale-" + i)
            .app("app-" + (i % 20))
            .handler("handler-" + (i % 7))
            .zone("UTC")
            .params("{\"n\":" + i + "}");
    int kind = i % 10;
    if (kind < 5) {
      b.cron("0 " + random.nextInt(60) + " * * * *").misfire(MisfireStrategy.DO_NOTHING, 5_000);
    } else if (kind < 8) {
      b.cron("0 " + random.nextInt(60) + " " + random.nextInt(24) + " * * *")
          .misfire(MisfireStrategy.FIRE_ONCE_NOW, 60_000);
    } else if (kind == 8) {
      b.fixedRate(60_000L * (1 + random.nextInt(30))).misfire(MisfireStrategy.DO_NOTHING, 5_000);
    } else {
      b.cron("0 0 * * * *").enabled(i % 20 != 9);
    }
    return b.build();
  }

  @Test
  void fiftyThousandJobsComeBackFromPostgreSqlWithTheSameDefinitionsAndNextFires()
      throws Exception {
    fx = new SyncFixture(cluster, pg);
    // A whole second, far from any cron boundary of the mix: creation and rebuild see one instant.
    SettableClock clock = new SettableClock(System.currentTimeMillis() / 1000 * 1000 + 1);
    RedisRebuilder rebuilder =
        new RedisRebuilder(fx.redis, fx.dataSource, clock, Duration.ofSeconds(60));
    assertThat(rebuilder.ensureInitialised(8).restoredJobs()).isZero();
    JobStore jobs = new JobStore(fx.redis, fx.keys, clock, 1_000_000);
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int from = 0; from < JOBS; from += CHUNK) {
      List<CompletableFuture<JobDefinition>> created = new ArrayList<>(CHUNK);
      for (int i = from; i < from + CHUNK; i++) {
        created.add(jobs.createAsync(job(i, random)));
      }
      created.forEach(CompletableFuture::join);
    }
    Map<String, Map<String, String>> before = readJobs();
    Map<String, Double> dueBefore = readDueScores();
    fx.worker("node-a").start();
    RedisVsPostgres compare = new RedisVsPostgres(fx.redis, fx.keys, fx.dataSource);
    SyncFixture.await(
        Duration.ofSeconds(180),
        JOBS + " jobs in PostgreSQL",
        () -> compare.count("SELECT count(*) FROM kairos_job") == JOBS);
    fx.close();
    fx = new SyncFixture(cluster, pg, false); // Redis emptied (a master lost with no replica)
    rebuilder = new RedisRebuilder(fx.redis, fx.dataSource, clock, Duration.ofSeconds(60));

    long start = System.nanoTime();
    RebuildReport report = rebuilder.ensureInitialised(8);
    log.info(
        "rebuilt {} jobs into an empty Redis in {} ms",
        report.restoredJobs(),
        Duration.ofNanos(System.nanoTime() - start).toMillis());

    assertThat(report.restoredJobs()).isEqualTo(JOBS);
    Map<String, Map<String, String>> after = readJobs();
    Map<String, Double> dueAfter = readDueScores();
    assertThat(after.keySet()).isEqualTo(before.keySet());
    for (var e : before.entrySet()) {
      assertThat(withoutNextFire(after.get(e.getKey())))
          .as("job %s", e.getKey())
          .isEqualTo(withoutNextFire(e.getValue()));
    }
    assertThat(dueAfter).as("every job's next fire").isEqualTo(dueBefore);
    long indexed = 0;
    long perApp = 0;
    for (int s = 0; s < SyncFixture.SHARDS; s++) {
      indexed += fx.redis.sync().zcard(RedisKeys.jobIds(s));
      perApp += fx.redis.sync().zcard(RedisKeys.appJobIds(s));
    }
    assertThat(indexed).as("id index entries").isEqualTo(JOBS);
    assertThat(perApp).as("per-app index entries").isEqualTo(JOBS);
  }

  /** Every job hash, read pipelined. */
  private Map<String, Map<String, String>> readJobs() {
    Map<String, CompletableFuture<Map<String, String>>> reads = new HashMap<>();
    for (int i = 0; i < JOBS; i++) {
      String id = "scale-" + i;
      reads.put(
          id,
          fx.redis.async().hgetall(RedisKeys.job(fx.keys.shardOf(id), id)).toCompletableFuture());
    }
    Map<String, Map<String, String>> jobs = new HashMap<>();
    reads.forEach((id, read) -> jobs.put(id, read.join()));
    return jobs;
  }

  /** Every scheduled job's due score (disabled and API jobs have none). */
  private Map<String, Double> readDueScores() {
    Map<String, Double> scores = new HashMap<>();
    for (int s = 0; s < SyncFixture.SHARDS; s++) {
      fx.redis
          .sync()
          .zrangeWithScores(RedisKeys.due(s), 0, -1)
          .forEach(v -> scores.put(v.getValue(), v.getScore()));
    }
    return scores;
  }

  private static Map<String, String> withoutNextFire(Map<String, String> hash) {
    Map<String, String> copy = new HashMap<>(hash);
    copy.remove("nextFireMs");
    return copy;
  }
}
