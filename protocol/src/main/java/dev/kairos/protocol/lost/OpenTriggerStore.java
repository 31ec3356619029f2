package dev.kairos.protocol.lost;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.protocol.fence.StaleTermException;
import io.lettuce.core.ScriptOutputType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The Redis side of the lost-trigger monitor: reads pages of a shard's open-trigger index ({@link
 * RedisKeys#openTriggers}) and applies the leader's verdicts with one fenced script call per shard
 * per batch ({@code redispatch_triggers.lua}, {@code mark_lost.lua}). Thread-safe.
 */
public final class OpenTriggerStore {

  private static final LuaScript OPEN = LuaScript.load(OpenTriggerStore.class, "open_triggers");
  private static final LuaScript REDISPATCH =
      LuaScript.load(OpenTriggerStore.class, "redispatch_triggers");
  private static final LuaScript MARK_LOST = LuaScript.load(OpenTriggerStore.class, "mark_lost");

  private final KairosRedis redis;
  private final long dedupWindowMs;
  private final long eventsMaxLen;
  private final Duration timeout;
  private final Counter fenceRejections;

  public OpenTriggerStore(
      KairosRedis redis,
      Duration dedupWindow,
      long eventsMaxLen,
      Duration timeout,
      MeterRegistry meters) {
    this.redis = redis;
    this.dedupWindowMs = dedupWindow.toMillis();
    this.eventsMaxLen = eventsMaxLen;
    this.timeout = timeout;
    this.fenceRejections = meters.counter("kairos.fence.rejections", "op", "lost-monitor");
  }

  /** One page of {@code shard}'s open triggers, oldest first; see {@code open_triggers.lua}. */
  public CompletionStage<OpenPage> readAsync(int shard, int offset, int limit) {
    return OPEN.<List<Object>>evalAsync(
            redis.async(),
            ScriptOutputType.MULTI,
            new String[] {RedisKeys.openTriggers(shard)},
            Integer.toString(offset),
            Integer.toString(limit),
            RedisKeys.triggerPrefix(shard),
            RedisKeys.jobPrefix(shard))
        .thenApply(reply -> parsePage(shard, reply));
  }

  public OpenPage read(int shard, int offset, int limit) {
    return await(readAsync(shard, offset, limit), "read open triggers of shard " + shard);
  }

  private static OpenPage parsePage(int shard, List<Object> reply) {
    List<OpenTrigger> rows = new ArrayList<>(reply.size() - 2);
    for (int i = 2; i < reply.size(); i++) {
      @SuppressWarnings("unchecked")
      List<Object> r = (List<Object>) reply.get(i);
      String slot = (String) r.get(2);
      rows.add(
          new OpenTrigger(
              shard,
              (String) r.get(0),
              (String) r.get(1),
              slot.isEmpty() ? -1 : Integer.parseInt(slot),
              (String) r.get(3),
              (long) Double.parseDouble((String) r.get(4)),
              Long.parseLong((String) r.get(5)),
              (String) r.get(6),
              (String) r.get(7),
              (String) r.get(8),
              !((String) r.get(9)).isEmpty()));
    }
    return new OpenPage(((Long) reply.get(0)).intValue(), ((Long) reply.get(1)).intValue(), rows);
  }

  /**
   * Records, fenced by {@code term}, that these DISPATCHED triggers of {@code shard} are published
   * again to the given slots; the caller must publish exactly the accepted ones.
   *
   * @param targets trigger id → target slot, in the order to handle them
   * @throws StaleTermException when the shard is fenced by a higher term (nothing written)
   */
  public RedispatchResult redispatch(long term, int shard, List<Redispatch> targets, long nowMs) {
    List<String> args = new ArrayList<>();
    args.add(Long.toString(term));
    args.add(Long.toString(nowMs));
    args.add(Long.toString(dedupWindowMs));
    args.add(Long.toString(eventsMaxLen));
    args.add(RedisKeys.triggerPrefix(shard));
    args.add(RedisKeys.jobPrefix(shard));
    args.add(Integer.toString(targets.size()));
    for (Redispatch target : targets) {
      args.add(target.triggerId());
      args.add(Integer.toString(target.slot()));
    }
    List<Object> reply =
        await(
            REDISPATCH.evalAsync(
                redis.async(),
                ScriptOutputType.MULTI,
                new String[] {
                  RedisKeys.fence(shard), RedisKeys.openTriggers(shard), RedisKeys.events(shard)
                },
                args.toArray(String[]::new)),
            "re-dispatch in shard " + shard);
    rejectIfFenced(term, shard, reply);
    List<Redispatched> accepted = new ArrayList<>();
    int expired = 0;
    int noExecutor = 0;
    int skipped = 0;
    for (int i = 0; i < targets.size(); i++) {
      @SuppressWarnings("unchecked")
      List<Object> r = (List<Object>) reply.get(i + 2);
      long kind = (Long) r.get(0);
      if (kind == 2) {
        expired++;
      } else if (kind == 3) {
        noExecutor++;
      } else if (kind == 0) {
        skipped++;
      } else {
        String timeoutMs = (String) r.get(5);
        accepted.add(
            new Redispatched(
                shard,
                targets.get(i).triggerId(),
                (String) r.get(8),
                Long.parseLong((String) r.get(7)),
                (String) r.get(1),
                (String) r.get(2),
                (String) r.get(3),
                (String) r.get(4),
                timeoutMs.isEmpty() ? 0 : Long.parseLong(timeoutMs),
                Integer.parseInt((String) r.get(6)),
                targets.get(i).slot()));
      }
    }
    return new RedispatchResult(accepted, expired, noExecutor, skipped);
  }

  /**
   * Ends, fenced by {@code term}, these RUNNING triggers of {@code shard} as LOST (CANCELLED when a
   * cancel was requested), each only while the record still names the expected executor.
   *
   * @throws StaleTermException when the shard is fenced by a higher term (nothing written)
   */
  public LostResult markLost(long term, int shard, List<LostCandidate> candidates, long nowMs) {
    List<String> args = new ArrayList<>();
    args.add(Long.toString(term));
    args.add(Long.toString(nowMs));
    args.add(Long.toString(dedupWindowMs));
    args.add(Long.toString(eventsMaxLen));
    args.add(RedisKeys.triggerPrefix(shard));
    args.add(Integer.toString(candidates.size()));
    for (LostCandidate c : candidates) {
      args.add(c.triggerId());
      args.add(c.executor());
      args.add(c.reason());
    }
    List<Object> reply =
        await(
            MARK_LOST.evalAsync(
                redis.async(),
                ScriptOutputType.MULTI,
                new String[] {
                  RedisKeys.fence(shard), RedisKeys.openTriggers(shard), RedisKeys.events(shard)
                },
                args.toArray(String[]::new)),
            "mark lost in shard " + shard);
    rejectIfFenced(term, shard, reply);
    List<String> lost = new ArrayList<>();
    List<String> cancelled = new ArrayList<>();
    int skipped = 0;
    for (int i = 0; i < candidates.size(); i++) {
      String outcome = (String) reply.get(i + 2);
      switch (outcome) {
        case "LOST" -> lost.add(candidates.get(i).triggerId());
        case "CANCELLED" -> cancelled.add(candidates.get(i).triggerId());
        default -> skipped++;
      }
    }
    return new LostResult(lost, cancelled, skipped);
  }

  private void rejectIfFenced(long term, int shard, List<Object> reply) {
    if ((Long) reply.get(0) == 0L) {
      fenceRejections.increment();
      throw new StaleTermException(term, (Long) reply.get(1), shard);
    }
  }

  private <T> T await(CompletionStage<T> call, String what) {
    try {
      return call.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosException("interrupted: " + what, e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof StaleTermException stale) {
        throw stale;
      }
      throw new KairosException("cannot " + what, e.getCause());
    } catch (TimeoutException e) {
      throw new KairosException("timed out: " + what, e);
    }
  }
}
