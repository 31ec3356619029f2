package dev.kairos.sync.event;

import dev.kairos.core.log.LogLine;
import java.util.List;
import java.util.Map;

/** One parsed entry of a shard's events stream. */
public sealed interface SyncEvent {

  int shard();

  StreamId id();

  /**
   * JOB_UPSERTED: the whole job hash as stored after the change (create, update, enable, disable).
   */
  record JobUpserted(int shard, StreamId id, Map<String, String> hash) implements SyncEvent {}

  /** JOB_DELETED with the versions the deletion had, so a replayed older upsert loses. */
  record JobDeleted(
      int shard, StreamId id, String jobId, long version, long scheduleVersion, long deletedMs)
      implements SyncEvent {}

  /**
   * TRIGGER_CLAIMED, TRIGGER_UPDATED or TRIGGER_MOVED, normalised: a field the event does not carry
   * is null. {@code state} is null for a move (it changes the node only).
   */
  record TriggerChange(
      int shard,
      StreamId id,
      String triggerId,
      String jobId,
      String state,
      int stateRank,
      Long fireMs,
      Integer attempt,
      Long scheduleVersion,
      String node,
      Long term,
      String executor,
      String slot,
      String message,
      Long claimedMs,
      Long dispatchedMs,
      Long startedMs,
      Long endedMs,
      Long lateEndedMs,
      String lateMessage)
      implements SyncEvent {}

  /** TRIGGER_LOG: a batch of a running trigger's handler log lines (sequence order). */
  record TriggerLog(
      int shard, StreamId id, String triggerId, String jobId, long fireMs, List<LogLine> lines)
      implements SyncEvent {}

  /** An event type this version does not know, or an entry too malformed to apply. */
  record Unknown(int shard, StreamId id, String type, String problem) implements SyncEvent {}
}
