package dev.kairos.backfill;

import dev.kairos.core.model.TriggerId;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.ScriptOutputType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads how a backfill's in-flight fires stand: each fire's record (state, attempt) and, when it
 * has none, whether it still waits in its shard's ad-hoc set, in one atomic read ({@code
 * read_backfill_fires.lua}) per shard and batch, the calls pipelined. Every key of a fire carries
 * its job's shard tag, so the fires of one job (a backfill's) are one call. Thread-safe.
 */
final class InflightFires {

  /** Fires read per script call at most, so one call never holds Redis long. */
  static final int MAX_PER_CALL = 500;

  private static final LuaScript READ = LuaScript.load(InflightFires.class, "read_backfill_fires");

  /** Where a fire stands. */
  enum Where {
    /** Its record exists (claimed, running or ended). */
    RECORDED,
    /** No record, and it waits in the ad-hoc set: submitted, not claimed yet. */
    WAITING,
    /** Neither: never submitted, expired, or lost. */
    GONE
  }

  /** One fire's record fields (empty when absent) and where it stands. */
  record Fire(Optional<String> state, Optional<String> attempt, Where where) {}

  private final KairosRedis redis;
  private final RedisKeys keys;

  InflightFires(KairosRedis redis, RedisKeys keys) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.keys = Objects.requireNonNull(keys, "keys");
  }

  /** How each of {@code ids} stands, in their order. */
  List<Fire> read(List<TriggerId> ids) {
    Map<Integer, List<Integer>> byShard = new LinkedHashMap<>();
    for (int i = 0; i < ids.size(); i++) {
      byShard.computeIfAbsent(keys.shardOf(ids.get(i).jobId()), s -> new ArrayList<>()).add(i);
    }
    List<CompletableFuture<List<Object>>> calls = new ArrayList<>();
    List<List<Integer>> batches = new ArrayList<>();
    byShard.forEach(
        (shard, positions) -> {
          for (int from = 0; from < positions.size(); from += MAX_PER_CALL) {
            List<Integer> batch =
                positions.subList(from, Math.min(positions.size(), from + MAX_PER_CALL));
            batches.add(batch);
            calls.add(call(shard, batch.stream().map(ids::get).toList()));
          }
        });
    Fire[] fires = new Fire[ids.size()];
    for (int b = 0; b < calls.size(); b++) {
      List<Object> reply = await(calls.get(b));
      List<Integer> batch = batches.get(b);
      if (reply.size() != 3 * batch.size()) {
        throw new IllegalStateException(
            "read_backfill_fires returned " + reply.size() + " values for " + batch.size());
      }
      for (int k = 0; k < batch.size(); k++) {
        fires[batch.get(k)] =
            new Fire(
                nonEmpty(reply.get(3 * k)),
                nonEmpty(reply.get(3 * k + 1)),
                where(String.valueOf(reply.get(3 * k + 2))));
      }
    }
    return List.of(fires);
  }

  private CompletableFuture<List<Object>> call(int shard, List<TriggerId> fires) {
    String[] scriptKeys = new String[fires.size() + 1];
    String[] args = new String[fires.size()];
    scriptKeys[0] = RedisKeys.adhoc(shard);
    for (int i = 0; i < fires.size(); i++) {
      scriptKeys[i + 1] = RedisKeys.trigger(shard, fires.get(i).value());
      args[i] = fires.get(i).value();
    }
    return READ.<List<Object>>evalAsync(redis.async(), ScriptOutputType.MULTI, scriptKeys, args)
        .toCompletableFuture();
  }

  private static Optional<String> nonEmpty(Object value) {
    return value == null || value.toString().isEmpty()
        ? Optional.empty()
        : Optional.of(value.toString());
  }

  private static Where where(String code) {
    return switch (code) {
      case "R" -> Where.RECORDED;
      case "W" -> Where.WAITING;
      case "-" -> Where.GONE;
      default -> throw new IllegalStateException("read_backfill_fires returned where=" + code);
    };
  }

  private <T> T await(CompletableFuture<T> call) {
    try {
      return call.get(redis.timeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted reading backfill fires", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("reading backfill fires failed", e);
    }
  }
}
