package dev.kairos.core.store;

import dev.kairos.core.lifecycle.Lifecycle;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives a shard written by an older version its ordered job indexes ({@link RedisKeys#jobIds},
 * {@link RedisKeys#appJobIds}), once, at node start: the ids of the shard's legacy SET ({@link
 * RedisKeys#legacyJobIndex}) are moved in, a chunk per script call ({@code index_legacy_jobs.lua}),
 * until the SET is gone; then the shard's indexes are checked against its job hashes ({@code
 * verify_job_ids.lua}, {@code verify_app_ids.lua}), which drops what a delete or an app change made
 * through an older node left behind.
 *
 * <p>Every step is atomic per chunk and reads the job hash inside the script, so it is idempotent,
 * any number of nodes may run it at once, and a job created, deleted or moved meanwhile by a node
 * of this version (whose scripts keep the indexes themselves) is never indexed wrongly. A shard
 * without a legacy SET costs one {@code EXISTS}; with {@code verifyEveryShard} every shard is
 * checked, legacy SET or not (one pass over its indexes, {@value #CHUNK} entries per call).
 *
 * <p>Threads: {@link #run()} on the caller's; {@link #start()} runs it on {@code kairos-job-index},
 * retrying every {@link #RETRY_DELAY} until it succeeds or the repair is closed.
 */
public final class JobIndexRepair implements AutoCloseable {

  /** Ids moved or checked per script call: each call holds Redis for about a millisecond. */
  public static final int CHUNK = 500;

  public static final Duration RETRY_DELAY = Duration.ofSeconds(5);

  private static final Logger log = LoggerFactory.getLogger(JobIndexRepair.class);

  /**
   * What one run did.
   *
   * @param legacyShards shards whose legacy SET was moved into the indexes
   * @param indexed ids moved in (ids of jobs deleted meanwhile are not counted)
   * @param verifiedShards shards whose indexes were checked against the job hashes
   * @param removed index entries removed by the check
   */
  public record Report(
      List<Integer> legacyShards, long indexed, List<Integer> verifiedShards, long removed) {}

  private final Lifecycle lifecycle = new Lifecycle("job index repair");
  private final KairosRedis redis;
  private final RedisKeys keys;
  private final boolean verifyEveryShard;
  private final LuaScript indexLegacy;
  private final LuaScript verifyIds;
  private final LuaScript verifyAppIds;
  private Thread thread;

  public JobIndexRepair(KairosRedis redis, RedisKeys keys, boolean verifyEveryShard) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.keys = Objects.requireNonNull(keys, "keys");
    this.verifyEveryShard = verifyEveryShard;
    this.indexLegacy = LuaScript.load(JobIndexRepair.class, "index_legacy_jobs");
    this.verifyIds = LuaScript.load(JobIndexRepair.class, "verify_job_ids");
    this.verifyAppIds = LuaScript.load(JobIndexRepair.class, "verify_app_ids");
  }

  /** Runs the repair on {@code kairos-job-index}; returns at once. */
  public void start() {
    lifecycle.start();
    thread = new Thread(this::runUntilDone, "kairos-job-index");
    thread.setDaemon(true);
    thread.start();
  }

  /** True once {@link #start()}'s run has succeeded (or the repair was closed). */
  public boolean isDone() {
    Thread t = thread;
    return t != null && !t.isAlive();
  }

  private void runUntilDone() {
    while (lifecycle.isStarted()) {
      try {
        run();
        return;
      } catch (RuntimeException e) {
        if (!lifecycle.isStarted()) {
          return;
        }
        log.warn(
            "job index repair failed ({}); will retry in {} s",
            e.toString(),
            RETRY_DELAY.toSeconds());
      }
      try {
        Thread.sleep(RETRY_DELAY.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return; // closing
      }
    }
  }

  /** Moves every legacy SET in and checks the shards that had one (or all); on this thread. */
  public Report run() {
    int shards = keys.shards();
    List<RedisFuture<Long>> exists = new ArrayList<>(shards);
    for (int s = 0; s < shards; s++) {
      exists.add(redis.async().exists(RedisKeys.legacyJobIndex(s)));
    }
    List<Integer> legacy = new ArrayList<>();
    for (int s = 0; s < shards; s++) {
      if (await(exists.get(s), s) > 0) {
        legacy.add(s);
      }
    }
    long indexed = 0;
    for (int s : legacy) {
      indexed += moveLegacy(s);
    }
    List<Integer> verified = new ArrayList<>();
    long removed = 0;
    for (int s = 0; s < shards; s++) {
      if (verifyEveryShard || legacy.contains(s)) {
        removed += verify(s);
        verified.add(s);
      }
    }
    Report report = new Report(legacy, indexed, verified, removed);
    if (!legacy.isEmpty() || removed > 0) {
      log.info(
          "job index: {} ids of older versions' job sets indexed in shards {}; {} shards checked,"
              + " {} stale entries removed",
          indexed,
          legacy,
          verified.size(),
          removed);
    }
    return report;
  }

  private long moveLegacy(int shard) {
    long indexed = 0;
    while (true) {
      List<String> ids = redis.sync().srandmember(RedisKeys.legacyJobIndex(shard), CHUNK);
      if (ids == null || ids.isEmpty()) {
        return indexed;
      }
      List<String> args = new ArrayList<>(ids.size() + 1);
      args.add(RedisKeys.jobPrefix(shard));
      args.addAll(ids);
      Long n =
          indexLegacy.eval(
              redis.sync(),
              ScriptOutputType.INTEGER,
              new String[] {
                RedisKeys.legacyJobIndex(shard), RedisKeys.jobIds(shard), RedisKeys.appJobIds(shard)
              },
              args.toArray(String[]::new));
      indexed += n;
    }
  }

  /** Checks both indexes of the shard; returns the entries removed. */
  private long verify(int shard) {
    long removed = 0;
    String prefix = RedisKeys.jobPrefix(shard);
    String[] both = {RedisKeys.jobIds(shard), RedisKeys.appJobIds(shard)};
    String after = "";
    do {
      List<Object> r =
          verifyIds.eval(redis.sync(), ScriptOutputType.MULTI, both, prefix, after, "" + CHUNK);
      removed += (Long) r.get(1);
      after = ((Long) r.get(0)) < CHUNK ? null : (String) r.get(2);
    } while (after != null);
    String[] appIndex = {RedisKeys.appJobIds(shard)};
    after = "";
    do {
      List<Object> r =
          verifyAppIds.eval(
              redis.sync(), ScriptOutputType.MULTI, appIndex, prefix, after, "" + CHUNK);
      removed += (Long) r.get(1);
      after = ((Long) r.get(0)) < CHUNK ? null : (String) r.get(2);
    } while (after != null);
    return removed;
  }

  private long await(RedisFuture<Long> future, int shard) {
    try {
      Long n = future.get(redis.timeout().toMillis(), TimeUnit.MILLISECONDS);
      return n == null ? 0 : n;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted reading shard " + shard + "'s job set", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("reading shard " + shard + "'s job set failed: " + e, e);
    }
  }

  @Override
  public void close() {
    if (!lifecycle.closeStarted()) {
      return;
    }
    thread.interrupt();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
