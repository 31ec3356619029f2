package dev.kairos.core.store;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Which executor apps have enabled jobs, and how many: the sum over every shard of the per-shard
 * counts ({@link RedisKeys#enabledApps}) that the job scripts keep in the same transaction as the
 * job itself. One pipelined HGETALL per shard, each as small as the number of apps; no scan of
 * jobs. Thread-safe.
 */
public final class EnabledApps {

  private final KairosRedis redis;
  private final RedisKeys keys;
  private final long timeoutMs;

  public EnabledApps(KairosRedis redis, RedisKeys keys, long timeoutMs) {
    this.redis = redis;
    this.keys = keys;
    this.timeoutMs = timeoutMs;
  }

  /** App name → enabled jobs naming it, over all shards; apps with none are absent. Sorted. */
  public Map<String, Long> read() {
    List<CompletableFuture<Map<String, String>>> reads = new ArrayList<>(keys.shards());
    for (int s = 0; s < keys.shards(); s++) {
      reads.add(redis.async().hgetall(RedisKeys.enabledApps(s)).toCompletableFuture());
    }
    Map<String, Long> counts = new TreeMap<>();
    for (CompletableFuture<Map<String, String>> read : reads) {
      for (Map.Entry<String, String> e : join(read).entrySet()) {
        long n = Long.parseLong(e.getValue());
        if (n > 0) {
          counts.merge(e.getKey(), n, Long::sum);
        }
      }
    }
    return counts;
  }

  private Map<String, String> join(CompletableFuture<Map<String, String>> read) {
    try {
      Map<String, String> hash = read.get(timeoutMs, TimeUnit.MILLISECONDS);
      return hash == null ? Map.of() : hash;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosException("interrupted while reading enabled apps", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new KairosException("reading enabled apps failed: " + e, e);
    }
  }
}
