package dev.kairos.sync.history.read;

import dev.kairos.sync.history.TriggerRecord;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Immutable;

/**
 * A row of {@code kairos_trigger}, read-only: the guarded JDBC upserts of {@code SyncStore} are the
 * only writer, so this entity has no setters and Hibernate never dirty-checks or flushes it.
 */
@Entity
@Immutable
@Table(name = "kairos_trigger")
public class TriggerEntity {

  @Id
  @Column(name = "trigger_id")
  private String triggerId;

  @Column(name = "job_id")
  private String jobId;

  @Column(name = "fire_ms")
  private Long fireMs;

  private String state;
  private Integer attempt;
  private String node;
  private Long term;
  private String executor;
  private String slot;
  private String message;

  @Column(name = "late_message")
  private String lateMessage;

  @Column(name = "claimed_ms")
  private Long claimedMs;

  @Column(name = "dispatched_ms")
  private Long dispatchedMs;

  @Column(name = "started_ms")
  private Long startedMs;

  @Column(name = "ended_ms")
  private Long endedMs;

  protected TriggerEntity() {} // for Hibernate

  public String triggerId() {
    return triggerId;
  }

  public String jobId() {
    return jobId;
  }

  public String state() {
    return state;
  }

  /** The result text a late report carried after the trigger had already ended, if any. */
  public String lateMessage() {
    return lateMessage;
  }

  /** The same shape the JDBC history queries answer, so callers render both alike. */
  public TriggerRecord toRecord() {
    return new TriggerRecord(
        triggerId,
        jobId,
        fireMs,
        state,
        attempt,
        node,
        term,
        executor,
        slot,
        message,
        claimedMs,
        dispatchedMs,
        startedMs,
        endedMs);
  }
}
