package dev.kairos.sync.history.read;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Immutable;

/**
 * The columns of {@code kairos_job} the history reads need: which app a job id belongs to. Trigger
 * rows carry only the job id, so searches and reports by app go through this. Read-only like every
 * entity here; a deleted job's tombstone keeps its app, so its history still counts for the app.
 */
@Entity
@Immutable
@Table(name = "kairos_job")
public class JobAppEntity {

  @Id
  @Column(name = "job_id")
  private String jobId;

  private String app;

  private boolean deleted;

  protected JobAppEntity() {} // for Hibernate

  public String jobId() {
    return jobId;
  }

  public String app() {
    return app;
  }

  public boolean deleted() {
    return deleted;
  }
}
