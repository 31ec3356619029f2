package dev.kairos.coordinator.assign;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads wheel sizes with ZCARD of every node's wheel and inflight keys in all shards, pipelined.
 */
public final class RedisWheelLoad implements WheelLoad {

  private final KairosRedis redis;
  private final RedisKeys keys;
  private final Duration timeout;

  public RedisWheelLoad(KairosRedis redis, RedisKeys keys, Duration timeout) {
    this.redis = redis;
    this.keys = keys;
    this.timeout = timeout;
  }

  @Override
  public Map<String, Long> entriesPerNode(List<String> nodes) {
    Map<String, List<CompletableFuture<Long>>> calls = new HashMap<>();
    for (String node : nodes) {
      List<CompletableFuture<Long>> perShard = new ArrayList<>(keys.shards() * 2);
      for (int shard = 0; shard < keys.shards(); shard++) {
        perShard.add(redis.async().zcard(RedisKeys.wheel(shard, node)).toCompletableFuture());
        perShard.add(redis.async().zcard(RedisKeys.inflight(shard, node)).toCompletableFuture());
      }
      calls.put(node, perShard);
    }
    Map<String, Long> sizes = new HashMap<>();
    for (var entry : calls.entrySet()) {
      long total = 0;
      for (CompletableFuture<Long> call : entry.getValue()) {
        total += await(call, entry.getKey());
      }
      sizes.put(entry.getKey(), total);
    }
    return sizes;
  }

  private long await(CompletableFuture<Long> call, String node) {
    try {
      return call.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosException("interrupted reading the wheel size of node " + node, e);
    } catch (ExecutionException | TimeoutException e) {
      throw new KairosException("cannot read the wheel size of node " + node, e);
    }
  }
}
