package dev.kairos.audit;

import dev.kairos.sync.event.StreamId;
import java.util.List;

/**
 * An audit entry as stored, under its stream entry id: the id orders the trail (newest first is the
 * highest id) and makes a replayed insert a no-op.
 */
public record AuditRecord(StreamId id, AuditEntry entry) {

  /** The fields of the job definition that changed, computed from the stored before and after. */
  public List<AuditDiff.FieldChange> diff() {
    if (entry.jobBefore() == null && entry.jobAfter() == null) {
      return List.of();
    }
    return AuditDiff.of(entry.jobBefore(), entry.jobAfter());
  }
}
