package dev.kairos.sync.history.read;

import java.util.List;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

/** Trigger history reads: the search across jobs, and one job's statistics over a time range. */
public interface TriggerHistoryRepository
    extends ReadOnlyRepository<TriggerEntity, String>, TriggerSearchFragment {

  /** Triggers of the job scheduled in [fromMs, toMs), counted per state (index job_id, fire_ms). */
  @Query(
      "select new dev.kairos.sync.history.read.StateCount(t.state, count(t)) from TriggerEntity t"
          + " where t.jobId = :jobId and t.fireMs >= :fromMs and t.fireMs < :toMs"
          + " group by t.state order by t.state")
  List<StateCount> countByState(
      @Param("jobId") String jobId, @Param("fromMs") long fromMs, @Param("toMs") long toMs);

  /**
   * Duration percentiles of the job's triggers scheduled in [fromMs, toMs). Native: JPQL has no
   * ordered-set aggregates, and computing them in Java would load every row.
   */
  @Query(
      nativeQuery = true,
      value =
          """
          SELECT count(*) AS timed,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY ended_ms - started_ms) AS p50,
              percentile_cont(0.9) WITHIN GROUP (ORDER BY ended_ms - started_ms) AS p90,
              percentile_cont(0.99) WITHIN GROUP (ORDER BY ended_ms - started_ms) AS p99,
              max(ended_ms - started_ms) AS max
          FROM kairos_trigger
          WHERE job_id = :jobId AND fire_ms >= :fromMs AND fire_ms < :toMs
              AND started_ms IS NOT NULL AND ended_ms IS NOT NULL AND ended_ms >= started_ms
          """)
  DurationPercentiles durations(
      @Param("jobId") String jobId, @Param("fromMs") long fromMs, @Param("toMs") long toMs);
}
