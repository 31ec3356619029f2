package dev.kairos.core.store;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.Range.Boundary;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads of the shards' job indexes ({@link RedisKeys#jobIds}, {@link RedisKeys#appJobIds}), which
 * the job scripts keep in the same call as the job: ids in order from a cursor, merged over the
 * shards ({@link MergedIdWalker}), and counts. No read here touches a job hash, and none costs more
 * than {@code O(log N)} per shard plus what it returns.
 *
 * <p>Thread-safe; every call sends its commands to all shards at once and waits for them together.
 */
public final class JobIndex {

  private final KairosRedis redis;
  private final RedisKeys keys;
  private final Duration timeout;

  public JobIndex(KairosRedis redis, RedisKeys keys, Duration timeout) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.keys = Objects.requireNonNull(keys, "keys");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  public RedisKeys keys() {
    return keys;
  }

  /** The ids of {@code range} strictly after {@code afterId} ({@code null}: from its start). */
  public MergedIdWalker walk(IndexRange range, String afterId) {
    return new MergedIdWalker(
        keys.shards(),
        (shard, after, limit) ->
            redis
                .async()
                .zrangebylex(range.key(shard), range.after(after), Limit.create(0, limit))
                .toCompletableFuture()
                .thenApply(members -> members.stream().map(range::idOf).toList()),
        afterId,
        timeout);
  }

  /** Jobs in {@code range}: ZCARD, or ZLEXCOUNT of the range, per shard, summed. */
  public long count(IndexRange range) {
    List<CompletableFuture<Long>> counts = new ArrayList<>(keys.shards());
    for (int s = 0; s < keys.shards(); s++) {
      counts.add(
          (range.isAll()
                  ? redis.async().zcard(range.key(s))
                  : redis.async().zlexcount(range.key(s), range.after(null)))
              .toCompletableFuture());
    }
    long total = 0;
    long deadline = deadline();
    for (CompletableFuture<Long> count : counts) {
      Long n = await(count, deadline, "counting jobs");
      total += n == null ? 0 : n;
    }
    return total;
  }

  /**
   * Every app that some job names, with its number of jobs (enabled or not), sorted by app. Each
   * shard's per-app index is read app by app, skipping from one app to the next ({@code ZRANGEBYLEX
   * [<app>; + LIMIT 0 1}) and counting each ({@code ZLEXCOUNT}), every shard in the same round: one
   * round trip per app of the shard with the most apps, not a read of every job.
   */
  public Map<String, Long> countPerApp() {
    int shards = keys.shards();
    String[] from = new String[shards]; // per shard: where its next app starts; null when done
    for (int s = 0; s < shards; s++) {
      from[s] = "";
    }
    // Each app's count is sent with the next round's reads and awaited at the end.
    List<Map.Entry<String, CompletableFuture<Long>>> counts = new ArrayList<>();
    boolean more = true;
    while (more) {
      more = false;
      long deadline = deadline();
      Map<Integer, CompletableFuture<List<String>>> nextApp = new HashMap<>();
      for (int s = 0; s < shards; s++) {
        if (from[s] == null) {
          continue;
        }
        Range<String> rest =
            Range.from(
                from[s].isEmpty() ? Boundary.<String>unbounded() : Boundary.including(from[s]),
                Boundary.<String>unbounded());
        nextApp.put(
            s,
            redis
                .async()
                .zrangebylex(RedisKeys.appJobIds(s), rest, Limit.create(0, 1))
                .toCompletableFuture());
      }
      for (var read : nextApp.entrySet()) {
        int s = read.getKey();
        List<String> first = await(read.getValue(), deadline, "listing apps");
        if (first == null || first.isEmpty()) {
          from[s] = null;
          continue;
        }
        String member = first.get(0);
        String app = member.substring(0, member.indexOf(IndexRange.APP_SEPARATOR));
        counts.add(
            Map.entry(
                app,
                redis
                    .async()
                    .zlexcount(RedisKeys.appJobIds(s), IndexRange.ofApp(app).after(null))
                    .toCompletableFuture()));
        // Past every member of this app: '<app>;' sorts right after '<app>:<any id>'.
        from[s] = app + (char) (IndexRange.APP_SEPARATOR + 1);
        more = true;
      }
    }
    Map<String, Long> perApp = new TreeMap<>();
    long deadline = deadline();
    for (var count : counts) {
      Long n = await(count.getValue(), deadline, "counting jobs per app");
      if (n != null && n > 0) {
        perApp.merge(count.getKey(), n, Long::sum);
      }
    }
    return perApp;
  }

  private long deadline() {
    return System.nanoTime() + timeout.toNanos();
  }

  private <T> T await(CompletableFuture<T> future, long deadline, String what) {
    try {
      return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosException("interrupted " + what, e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r; // Redis's own: callers answer it as Redis being unavailable
      }
      throw new KairosException(what + " failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new io.lettuce.core.RedisCommandTimeoutException(what + " took longer than " + timeout);
    }
  }
}
