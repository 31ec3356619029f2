package dev.kairos.node.lifecycle.guard;

import dev.kairos.core.model.TriggerId;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.KairosClock;
import dev.kairos.protocol.cancel.CancelScript;
import io.lettuce.core.Range;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Cancels a trigger on an operator's request. The trigger record changes first, atomically in its
 * shard ({@code cancel_trigger.lua}, {@link CancelScript}): a trigger that has not started becomes
 * CANCELLED at once; a running one gets {@code cancelRequested}, and its id is added to the app's
 * cancel set ({@link RedisKeys#cancels}), which every executor of the app polls (docs/executors.md
 * says why this channel). Repeating a cancel is harmless: the record does not change again and the
 * id is re-added, which also repairs a crash between the two writes. Thread-safe.
 */
public final class TriggerCanceller {

  private static final Logger log = LoggerFactory.getLogger(TriggerCanceller.class);

  private final KairosRedis redis;
  private final CancelScript script;
  private final KairosClock clock;
  private final Duration dedupWindow;

  public TriggerCanceller(
      KairosRedis redis,
      RedisKeys keys,
      KairosClock clock,
      Duration dedupWindow,
      long eventsMaxLen) {
    this.redis = Objects.requireNonNull(redis, "redis");
    Objects.requireNonNull(keys, "keys");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.dedupWindow = Objects.requireNonNull(dedupWindow, "dedupWindow");
    this.script = new CancelScript(redis, keys, dedupWindow, eventsMaxLen);
  }

  /**
   * Cancels {@code triggerId}.
   *
   * @param by who asks, recorded on the trigger
   * @throws IllegalArgumentException when {@code triggerId} is not a trigger id
   */
  public CancelOutcome cancel(String triggerId, String by) {
    String jobId = new TriggerId(triggerId).jobId();
    long now = clock.nowMs();
    CancelScript.Reply reply = script.cancel(triggerId, jobId, now, by);
    CancelOutcome outcome =
        new CancelOutcome(
            CancelOutcome.Kind.valueOf(reply.outcome()), reply.stateFound(), reply.executor());
    String app = reply.app();
    if (outcome.kind() == CancelOutcome.Kind.CANCEL_REQUESTED && !app.isEmpty()) {
      notifyExecutors(app, triggerId, now);
    }
    MDC.put("jobId", jobId);
    MDC.put("triggerId", triggerId);
    try {
      log.info(
          "cancel of trigger {} by {}: {} (was {})",
          triggerId,
          by,
          outcome.kind(),
          outcome.stateFound());
    } finally {
      MDC.remove("jobId");
      MDC.remove("triggerId");
    }
    return outcome;
  }

  /** Adds the id to the app's cancel set and trims requests older than the dedup window. */
  private void notifyExecutors(String app, String triggerId, long now) {
    String key = RedisKeys.cancels(app);
    redis.sync().zadd(key, now, triggerId);
    redis
        .sync()
        .zremrangebyscore(
            key, Range.create(Double.NEGATIVE_INFINITY, (double) (now - dedupWindow.toMillis())));
  }
}
