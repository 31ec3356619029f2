package dev.kairos.sync.history.read;

import java.time.LocalDate;
import java.util.List;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

/** The daily report, per app (summed over the app's jobs) and over all jobs. */
public interface DailyReportRepository
    extends ReadOnlyRepository<DailyReportEntity, DailyReportKey> {

  String PER_APP =
      "select new dev.kairos.sync.history.read.AppDailyCount(r.day, j.app, sum(r.successCount),"
          + " sum(r.failureCount), sum(r.runningCount), sum(r.otherCount))"
          + " from DailyReportEntity r left join JobAppEntity j on j.jobId = r.jobId"
          + " where r.day >= :from and r.day <= :to and r.jobId <> '*'";

  @Query(PER_APP + " group by r.day, j.app order by r.day desc, j.app")
  List<AppDailyCount> perApp(@Param("from") LocalDate from, @Param("to") LocalDate to);

  @Query(PER_APP + " and j.app = :app group by r.day, j.app order by r.day desc")
  List<AppDailyCount> ofApp(
      @Param("from") LocalDate from, @Param("to") LocalDate to, @Param("app") String app);

  /** The rows over all jobs (job id "*"), newest day first. */
  @Query(
      "select r from DailyReportEntity r where r.jobId = '*' and r.day >= :from and r.day <= :to"
          + " order by r.day desc")
  List<DailyReportEntity> allJobs(@Param("from") LocalDate from, @Param("to") LocalDate to);
}
