package dev.kairos.sync.history.read;

import java.io.Serializable;
import java.time.LocalDate;
import java.util.Objects;

/** The primary key of {@link DailyReportEntity}: (day, job id). */
public class DailyReportKey implements Serializable {

  private LocalDate day;
  private String jobId;

  protected DailyReportKey() {} // for Hibernate

  public DailyReportKey(LocalDate day, String jobId) {
    this.day = day;
    this.jobId = jobId;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DailyReportKey k
        && Objects.equals(day, k.day)
        && Objects.equals(jobId, k.jobId);
  }

  @Override
  public int hashCode() {
    return Objects.hash(day, jobId);
  }
}
