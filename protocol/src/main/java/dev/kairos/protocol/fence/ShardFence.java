package dev.kairos.protocol.fence;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Raises the fence of every shard to a leader's term. A new leader does this before its first scan
 * so the previous leader is shut out of every shard at once, not shard by shard as the new one
 * happens to write (docs/design.md "Ownership and crash windows").
 */
public final class ShardFence {

  private static final LuaScript RAISE = LuaScript.load(ShardFence.class, "raise_fence");

  private final KairosRedis redis;
  private final RedisKeys keys;
  private final Duration timeout;

  public ShardFence(KairosRedis redis, RedisKeys keys, Duration timeout) {
    this.redis = redis;
    this.keys = keys;
    this.timeout = timeout;
  }

  /**
   * Raises the fence of all shards to {@code term}, in parallel.
   *
   * @throws StaleTermException when any shard is already fenced by a higher term (the other shards
   *     may have been raised: harmless, the higher term's leader wrote or will write there too)
   */
  public void raiseAll(long term) {
    List<CompletableFuture<List<Object>>> calls = new ArrayList<>();
    for (int shard = 0; shard < keys.shards(); shard++) {
      calls.add(
          RAISE
              .<List<Object>>evalAsync(
                  redis.async(),
                  ScriptOutputType.MULTI,
                  new String[] {RedisKeys.fence(shard)},
                  Long.toString(term))
              .toCompletableFuture());
    }
    long highest = -1;
    int shardOfHighest = -1;
    for (int shard = 0; shard < calls.size(); shard++) {
      List<Object> reply = await(calls.get(shard), shard);
      if ((Long) reply.get(0) == 0L && (Long) reply.get(1) > highest) {
        highest = (Long) reply.get(1);
        shardOfHighest = shard;
      }
    }
    if (shardOfHighest >= 0) {
      throw new StaleTermException(term, highest, shardOfHighest);
    }
  }

  /** The highest fence over all shards (0 when none was ever raised); feeds term allocation. */
  public long highestFence() {
    List<CompletableFuture<String>> reads = new ArrayList<>();
    for (int shard = 0; shard < keys.shards(); shard++) {
      reads.add(redis.async().get(RedisKeys.fence(shard)).toCompletableFuture());
    }
    long highest = 0;
    for (int shard = 0; shard < reads.size(); shard++) {
      String value = await(reads.get(shard), shard);
      if (value != null) {
        highest = Math.max(highest, Long.parseLong(value));
      }
    }
    return highest;
  }

  private <T> T await(CompletableFuture<T> call, int shard) {
    try {
      return call.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosException("interrupted fencing shard " + shard, e);
    } catch (ExecutionException | TimeoutException e) {
      throw new KairosException("cannot fence shard " + shard, e);
    }
  }
}
