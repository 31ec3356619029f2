package dev.kairos.migrate.xxljob.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The importer's answer: per xxl-job job, what maps, what does not and why; and, once Kairos was
 * asked, what it did. A dry run ({@code applied == false}) writes nothing.
 *
 * @param source where the xxl-job rows came from (a dump file, or the JDBC URL without its query)
 * @param zone the time zone the imported crons are evaluated in
 * @param applied whether jobs were written to Kairos
 * @param kairosChecked whether Kairos itself checked the jobs (its import dry run or the write);
 *     false for an offline report, whose verdicts come from the same validator the node runs
 * @param total rows of {@code xxl_job_info}
 * @param importable jobs with verdict IMPORT
 * @param skipped jobs with verdict SKIP
 * @param notes findings about the whole source (an executor group no job uses, ...)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MigrationReport(
    String source,
    String zone,
    boolean applied,
    boolean kairosChecked,
    int total,
    int importable,
    int skipped,
    List<String> notes,
    List<JobReport> jobs) {

  public MigrationReport {
    notes = List.copyOf(notes);
    jobs = List.copyOf(jobs);
  }

  public static MigrationReport of(
      String source, String zone, List<String> notes, List<JobReport> jobs) {
    int importable =
        (int) jobs.stream().filter(j -> j.verdict() == JobReport.Verdict.IMPORT).count();
    return new MigrationReport(
        source, zone, false, false, jobs.size(), importable, jobs.size() - importable, notes, jobs);
  }

  /** This report with Kairos' answer per job. */
  public MigrationReport checkedByKairos(boolean applied, UnaryOperator<JobReport> outcome) {
    return new MigrationReport(
        source,
        zone,
        applied,
        true,
        total,
        importable,
        skipped,
        notes,
        jobs.stream().map(outcome).toList());
  }
}
