package dev.kairos.protocol.cancel;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * {@code cancel_trigger.lua}: an operator's cancel of one trigger, atomically in its shard. A
 * trigger that has not started (CLAIMED or DISPATCHED) becomes CANCELLED and leaves the open index;
 * a RUNNING one gets {@code cancelRequested}; a final or missing one is left as it is. The caller
 * (scheduler-node's {@code TriggerCanceller}) then tells the app's executors about a running one.
 * Thread-safe.
 */
public final class CancelScript {

  private static final LuaScript CANCEL = LuaScript.load(CancelScript.class, "cancel_trigger");

  /**
   * The script's answer.
   *
   * @param outcome CANCELLED, CANCEL_REQUESTED, ALREADY_FINAL or NOT_FOUND
   * @param stateFound the trigger's state when the cancel arrived ("" when there was no record)
   * @param executor the executor running it (CANCEL_REQUESTED) or that ran it ("" when none)
   * @param app the job's executor app ("" when the job is gone)
   */
  public record Reply(String outcome, String stateFound, String executor, String app) {}

  private final KairosRedis redis;
  private final RedisKeys keys;
  private final Duration dedupWindow;
  private final long eventsMaxLen;

  public CancelScript(KairosRedis redis, RedisKeys keys, Duration dedupWindow, long eventsMaxLen) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.keys = Objects.requireNonNull(keys, "keys");
    this.dedupWindow = Objects.requireNonNull(dedupWindow, "dedupWindow");
    this.eventsMaxLen = eventsMaxLen;
  }

  /**
   * Cancels {@code triggerId} of {@code jobId}.
   *
   * @param nowMs cluster time, recorded on the trigger
   * @param by who asks, recorded on the trigger
   */
  public Reply cancel(String triggerId, String jobId, long nowMs, String by) {
    int shard = keys.shardOf(jobId);
    List<Object> reply =
        CANCEL.eval(
            redis.sync(),
            ScriptOutputType.MULTI,
            new String[] {
              RedisKeys.trigger(shard, triggerId),
              RedisKeys.openTriggers(shard),
              RedisKeys.events(shard),
              RedisKeys.job(shard, jobId)
            },
            triggerId,
            jobId,
            Long.toString(nowMs),
            by,
            Long.toString(dedupWindow.toMillis()),
            Long.toString(eventsMaxLen),
            RedisKeys.endedPrefix(shard),
            Long.toString(RedisKeys.ENDED_BUCKET_MS));
    return new Reply(
        (String) reply.get(0), (String) reply.get(1), (String) reply.get(2), (String) reply.get(3));
  }
}
