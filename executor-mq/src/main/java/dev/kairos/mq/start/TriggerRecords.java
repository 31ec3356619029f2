package dev.kairos.mq.start;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.model.TriggerState;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * The executor's side of the trigger record ({@code RedisKeys.trigger(shard, triggerId)}): the
 * once-only start claim ({@code claim_start.lua}) and the completion ({@code
 * complete_trigger.lua}). Both run atomically in the trigger's shard, judge time by that master's
 * TIME, and append a TRIGGER_UPDATED event to the shard's stream. Thread-safe.
 */
public final class TriggerRecords {

  /** Default dedup window D: a trigger starts at most once within D of its fire time. */
  public static final Duration DEFAULT_DEDUP_WINDOW = Duration.ofMinutes(10);

  /** Default approximate bound of a shard's events stream (persistence-sync trims it sooner). */
  public static final long DEFAULT_EVENTS_MAX_LEN = RedisKeys.DEFAULT_EVENTS_MAX_LEN;

  /**
   * Final states an executor may record; LOST, EXPIRED and the rest belong to the scheduler.
   * CANCELLED is recorded by the executor that interrupted a run an operator cancelled.
   */
  public static final Set<TriggerState> EXECUTOR_FINAL_STATES =
      EnumSet.of(
          TriggerState.SUCCESS,
          TriggerState.FAIL,
          TriggerState.TIMEOUT,
          TriggerState.DISCARDED,
          TriggerState.CANCELLED);

  private final KairosRedis redis;
  private final RedisKeys keys;
  private final Duration dedupWindow;
  private final long eventsMaxLen;
  private final LuaScript claimStart = LuaScript.load(TriggerRecords.class, "claim_start");
  private final LuaScript completeTrigger =
      LuaScript.load(TriggerRecords.class, "complete_trigger");

  public TriggerRecords(
      KairosRedis redis, RedisKeys keys, Duration dedupWindow, long eventsMaxLen) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.keys = Objects.requireNonNull(keys, "keys");
    if (dedupWindow.isNegative() || dedupWindow.isZero()) {
      throw new IllegalArgumentException("the dedup window must be positive: " + dedupWindow);
    }
    if (eventsMaxLen < 1) {
      throw new IllegalArgumentException("eventsMaxLen must be >= 1 but was " + eventsMaxLen);
    }
    this.dedupWindow = dedupWindow;
    this.eventsMaxLen = eventsMaxLen;
  }

  /**
   * Reads the shard count from field {@code shards} of {@link RedisKeys#META}, fixed when the
   * cluster was initialised; fails when the cluster has not been initialised yet.
   */
  public static TriggerRecords connect(KairosRedis redis, Duration dedupWindow) {
    String shards = redis.sync().hget(RedisKeys.META, "shards");
    if (shards == null) {
      throw new KairosException(
          "Kairos is not initialised in this Redis: " + RedisKeys.META + " has no field shards");
    }
    return new TriggerRecords(
        redis, new RedisKeys(Integer.parseInt(shards)), dedupWindow, DEFAULT_EVENTS_MAX_LEN);
  }

  public Duration dedupWindow() {
    return dedupWindow;
  }

  /** Claims the start of a trigger; call as the handler is about to run, never on receipt. */
  public StartOutcome claimStart(StartRequest request) {
    int shard = keys.shardOf(request.jobId());
    List<Object> reply =
        claimStart.eval(
            redis.sync(), ScriptOutputType.MULTI, claimKeys(shard, request), claimArgs(request));
    return startOutcome(reply);
  }

  /**
   * The trigger's recorded state and executor (empty strings for a missing record or field): how an
   * executor whose claim reply was lost learns whether its claim committed.
   */
  public String[] stateAndExecutor(String triggerId, String jobId) {
    var values =
        redis.sync().hmget(RedisKeys.trigger(keys.shardOf(jobId), triggerId), "state", "executor");
    return new String[] {values.get(0).getValueOrElse(""), values.get(1).getValueOrElse("")};
  }

  /** {@link #claimStart} without blocking the caller; Lettuce pipelines concurrent calls. */
  public CompletionStage<StartOutcome> claimStartAsync(StartRequest request) {
    int shard = keys.shardOf(request.jobId());
    return claimStart
        .<List<Object>>evalAsync(
            redis.async(), ScriptOutputType.MULTI, claimKeys(shard, request), claimArgs(request))
        .thenApply(TriggerRecords::startOutcome);
  }

  private static String[] claimKeys(int shard, StartRequest request) {
    return new String[] {
      RedisKeys.trigger(shard, request.triggerId()),
      RedisKeys.events(shard),
      RedisKeys.openTriggers(shard)
    };
  }

  private String[] claimArgs(StartRequest request) {
    return new String[] {
      request.triggerId(),
      request.jobId(),
      Long.toString(request.scheduledFireMs()),
      request.executorId(),
      Integer.toString(request.slot()),
      Long.toString(dedupWindow.toMillis()),
      Integer.toString(request.attempt()),
      Long.toString(request.timeoutMs()),
      Long.toString(eventsMaxLen)
    };
  }

  private static StartOutcome startOutcome(List<Object> reply) {
    return new StartOutcome(
        StartOutcome.Kind.valueOf((String) reply.get(0)),
        (Long) reply.get(1),
        (String) reply.get(2),
        (String) reply.get(3));
  }

  /**
   * Records how a trigger this executor started ended (or that an unstarted one was DISCARDED).
   *
   * @param message the handler's message, already bounded (ResultMessage truncates)
   */
  public CompletionOutcome complete(
      String triggerId,
      String jobId,
      long scheduledFireMs,
      String executorId,
      TriggerState finalState,
      String message) {
    int shard = keys.shardOf(jobId);
    List<Object> reply =
        completeTrigger.eval(
            redis.sync(),
            ScriptOutputType.MULTI,
            completeKeys(shard, triggerId),
            completeArgs(triggerId, jobId, scheduledFireMs, executorId, finalState, message));
    return completionOutcome(reply);
  }

  /**
   * {@link #complete} without blocking the caller; Lettuce pipelines concurrent calls (the
   * scheduler's result consumer completes a whole batch of results this way).
   */
  public CompletionStage<CompletionOutcome> completeAsync(
      String triggerId,
      String jobId,
      long scheduledFireMs,
      String executorId,
      TriggerState finalState,
      String message) {
    int shard = keys.shardOf(jobId);
    return completeTrigger
        .<List<Object>>evalAsync(
            redis.async(),
            ScriptOutputType.MULTI,
            completeKeys(shard, triggerId),
            completeArgs(triggerId, jobId, scheduledFireMs, executorId, finalState, message))
        .thenApply(TriggerRecords::completionOutcome);
  }

  private static String[] completeKeys(int shard, String triggerId) {
    return new String[] {
      RedisKeys.trigger(shard, triggerId), RedisKeys.events(shard), RedisKeys.openTriggers(shard)
    };
  }

  private String[] completeArgs(
      String triggerId,
      String jobId,
      long scheduledFireMs,
      String executorId,
      TriggerState finalState,
      String message) {
    if (!EXECUTOR_FINAL_STATES.contains(finalState)) {
      throw new IllegalArgumentException(
          "an executor records only " + EXECUTOR_FINAL_STATES + ", not " + finalState);
    }
    return new String[] {
      triggerId,
      jobId,
      Long.toString(scheduledFireMs),
      executorId,
      finalState.name(),
      message == null ? "" : message,
      Long.toString(dedupWindow.toMillis()),
      Long.toString(eventsMaxLen)
    };
  }

  private static CompletionOutcome completionOutcome(List<Object> reply) {
    return new CompletionOutcome(
        CompletionOutcome.Kind.valueOf((String) reply.get(0)),
        (Long) reply.get(1),
        (String) reply.get(2));
  }
}
