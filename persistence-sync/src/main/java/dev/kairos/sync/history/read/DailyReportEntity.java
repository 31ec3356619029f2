package dev.kairos.sync.history.read;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.time.LocalDate;
import org.hibernate.annotations.Immutable;

/**
 * A row of {@code kairos_daily_report}: one job's trigger counts of one UTC day (or all jobs', job
 * id "*"), recomputed by {@code TriggerHistoryQueries.refreshDailyReport}. Read-only here.
 */
@Entity
@Immutable
@Table(name = "kairos_daily_report")
@IdClass(DailyReportKey.class)
public class DailyReportEntity {

  @Id private LocalDate day;

  @Id
  @Column(name = "job_id")
  private String jobId;

  @Column(name = "success_count")
  private long successCount;

  @Column(name = "failure_count")
  private long failureCount;

  @Column(name = "running_count")
  private long runningCount;

  @Column(name = "other_count")
  private long otherCount;

  protected DailyReportEntity() {} // for Hibernate

  public LocalDate day() {
    return day;
  }

  public String jobId() {
    return jobId;
  }

  public long successCount() {
    return successCount;
  }

  public long failureCount() {
    return failureCount;
  }

  public long runningCount() {
    return runningCount;
  }

  public long otherCount() {
    return otherCount;
  }
}
