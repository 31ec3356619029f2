package dev.kairos.node.api.backfill;

import dev.kairos.backfill.Backfill;
import dev.kairos.core.model.TriggerId;
import java.time.Instant;
import java.util.List;

/**
 * A backfill and its progress.
 *
 * @param id {@code <jobId>@<fromMs>-<toMs>}: the same request names the same backfill
 * @param state RUNNING, SUCCEEDED, FAILED (some fire did not succeed after its retries, or the job
 *     was deleted) or CANCELLED
 * @param total fires in the range
 * @param submitted fires submitted so far (each once, as trigger {@code <jobId>:<fireMs>:b})
 * @param succeeded fires whose chain ended in SUCCESS
 * @param failed fires whose chain ended otherwise
 * @param running fires submitted that have not ended
 * @param cursor the last fire time submitted; null before the first
 * @param inflight the current attempt of each running fire (trigger ids)
 * @param message why it waits or failed, empty otherwise
 */
public record BackfillView(
    String id,
    String jobId,
    String app,
    String from,
    String to,
    int maxConcurrent,
    String state,
    int total,
    int submitted,
    int succeeded,
    int failed,
    int running,
    String cursor,
    List<String> inflight,
    String message,
    long createdMs,
    long updatedMs,
    Long finishedMs) {

  static BackfillView of(Backfill b) {
    return new BackfillView(
        b.id(),
        b.jobId(),
        b.app(),
        Instant.ofEpochMilli(b.fromMs()).toString(),
        Instant.ofEpochMilli(b.toMs()).toString(),
        b.maxConcurrent(),
        b.state().name(),
        b.total(),
        b.submitted(),
        b.succeeded(),
        b.failed(),
        b.running(),
        b.cursorMs() < b.fromMs() ? null : Instant.ofEpochMilli(b.cursorMs()).toString(),
        b.inflight().stream().map(TriggerId::value).toList(),
        b.message(),
        b.createdMs(),
        b.updatedMs(),
        b.finishedMs() == 0 ? null : b.finishedMs());
  }

  /** A job's backfills, newest first. */
  public record Page(List<BackfillView> items) {}
}
