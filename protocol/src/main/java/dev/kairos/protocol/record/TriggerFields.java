package dev.kairos.protocol.record;

import dev.kairos.core.redis.RedisKeys;

/** Field names of the trigger HASH ({@link RedisKeys#trigger}); scripts use the same names. */
public final class TriggerFields {
  public static final String ID = "id";
  public static final String JOB_ID = "jobId";
  public static final String FIRE_MS = "fireMs";
  public static final String STATE = "state";

  /** Schedule version the fire was claimed under; a mismatch at fire time drops it. */
  public static final String SCHEDULE_VERSION = "scheduleVersion";

  public static final String ATTEMPT = "attempt";
  public static final String NODE = "node";
  public static final String TERM = "term";
  public static final String CLAIMED_MS = "claimedMs";
  public static final String DISPATCHED_MS = "dispatchedMs";
  public static final String STARTED_MS = "startedMs";
  public static final String ENDED_MS = "endedMs";
  public static final String EXECUTOR = "executor";
  public static final String SLOT = "slot";
  public static final String MESSAGE = "message";

  /** Broadcast fan-out fixed at first dispatch: total and the slot list, reused on re-send. */
  public static final String SHARD_TOTAL = "shardTotal";

  public static final String SHARD_SLOTS = "shardSlots";

  /**
   * A result that arrived after the trigger was already final (e.g. after LOST); kept beside it.
   */
  public static final String LATE_RESULT = "lateResult";

  /**
   * Set when an executor's start claim found no record within the dedup window and created it (e.g.
   * the record was lost in a Redis failover).
   */
  public static final String RECREATED = "recreated";

  /** {@link dev.kairos.core.model.TriggerKind}; absent on scheduled fires. */
  public static final String KIND = "kind";

  /** The previous attempt (a retry) or the parent job's trigger (a child trigger). */
  public static final String PARENT_TRIGGER_ID = "parentTriggerId";

  /** Parameters overriding the job's, when the ad-hoc trigger was submitted with some. */
  public static final String PARAMS = "params";

  /**
   * The executor slot a "trigger now" asked for, when it asked for one: the node sends the trigger
   * to that slot's queue only (while the slot has a live lease), whatever the job's routing. The
   * slot the trigger was sent to is {@link #SLOT}.
   */
  public static final String TARGET_SLOT = "targetSlot";

  /** Child-job chain depth: 0 for scheduled and manual triggers, parent's + 1 for a child. */
  public static final String DEPTH = "depth";

  /** When an ad-hoc trigger was submitted, epoch ms (cluster time). */
  public static final String REQUESTED_MS = "requestedMs";

  private TriggerFields() {}
}
