package dev.kairos.migrate.xxljob;

import dev.kairos.migrate.xxljob.kairos.JobBody;
import dev.kairos.migrate.xxljob.kairos.KairosImportClient;
import dev.kairos.migrate.xxljob.mapping.JobMapper;
import dev.kairos.migrate.xxljob.mapping.MappedJob;
import dev.kairos.migrate.xxljob.mapping.MappingOptions;
import dev.kairos.migrate.xxljob.report.JobReport;
import dev.kairos.migrate.xxljob.report.JobReport.KairosOutcome;
import dev.kairos.migrate.xxljob.report.MigrationReport;
import dev.kairos.migrate.xxljob.source.XxlJobTables;
import java.util.List;
import java.util.Map;

/**
 * The importer: xxl-job rows → a plan (the report plus the Kairos jobs) → optionally Kairos' dry
 * run or the write, both through Kairos' import endpoint. Nothing is written unless {@link #apply}
 * is called.
 */
public final class XxlJobMigration {

  /** The offline result: the report, and the jobs that would be sent. */
  public record Plan(MigrationReport report, List<MappedJob> jobs) {

    public Plan {
      jobs = List.copyOf(jobs);
    }

    /** The import document's {@code jobs[]}: the importable jobs as the job API reads them. */
    public List<Map<String, Object>> bodies() {
      return jobs.stream()
          .filter(MappedJob::importable)
          .map(j -> JobBody.of(j.definition(), j.extras()))
          .toList();
    }
  }

  private XxlJobMigration() {}

  public static Plan plan(XxlJobTables tables, MappingOptions options) {
    List<MappedJob> jobs = new JobMapper(options).map(tables);
    MigrationReport report =
        MigrationReport.of(
            tables.source(),
            options.zone(),
            JobMapper.notes(tables),
            jobs.stream().map(MappedJob::report).toList());
    return new Plan(report, jobs);
  }

  /** Kairos' own dry run of the plan: per job CREATE, UPDATE or UNCHANGED; nothing is written. */
  public static MigrationReport check(Plan plan, KairosImportClient kairos) {
    return answered(plan, kairos.dryRun(plan.bodies()), false);
  }

  /** Writes the importable jobs (after Kairos' dry run of all of them passed). */
  public static MigrationReport apply(Plan plan, KairosImportClient kairos) {
    return answered(plan, kairos.apply(plan.bodies()), true);
  }

  private static MigrationReport answered(
      Plan plan, Map<String, KairosOutcome> outcomes, boolean applied) {
    return plan.report()
        .checkedByKairos(
            applied,
            (JobReport job) -> {
              KairosOutcome outcome = outcomes.get(job.jobId());
              return job.verdict() == JobReport.Verdict.IMPORT && outcome != null
                  ? job.withKairos(outcome)
                  : job;
            });
  }
}
