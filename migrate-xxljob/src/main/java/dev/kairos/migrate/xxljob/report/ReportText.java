package dev.kairos.migrate.xxljob.report;

import dev.kairos.migrate.xxljob.report.JobReport.MappedField;
import dev.kairos.migrate.xxljob.report.JobReport.NotCarried;

/** The report as the CLI prints it: a summary, then one block per job. */
public final class ReportText {

  private ReportText() {}

  public static String render(MigrationReport report) {
    StringBuilder out = new StringBuilder();
    out.append("xxl-job import ")
        .append(report.applied() ? "(APPLIED)" : "(dry run: nothing written)")
        .append('\n');
    out.append("source: ").append(report.source()).append('\n');
    out.append("cron zone: ").append(report.zone()).append('\n');
    out.append("checked by: ")
        .append(report.kairosChecked() ? "Kairos (job-import)" : "offline (core's JobValidator)")
        .append('\n');
    out.append("jobs: ")
        .append(report.total())
        .append(", importable: ")
        .append(report.importable())
        .append(", skipped: ")
        .append(report.skipped())
        .append('\n');
    for (String note : report.notes()) {
      out.append("note: ").append(note).append('\n');
    }
    for (JobReport job : report.jobs()) {
      out.append('\n')
          .append(job.verdict())
          .append("  xxl ")
          .append(job.xxlId())
          .append(" -> ")
          .append(job.jobId());
      if (job.name() != null && !job.name().isEmpty()) {
        out.append("  \"").append(job.name()).append('"');
      }
      if (job.kairos() != null) {
        out.append("  Kairos: ").append(job.kairos().action());
        if (job.kairos().applied()) {
          out.append(" (written, version ").append(job.kairos().version()).append(')');
        }
      }
      out.append('\n');
      for (String problem : job.problems()) {
        out.append("    not importable: ").append(problem).append('\n');
      }
      for (MappedField f : job.mapped()) {
        out.append("    ")
            .append(f.xxl() == null ? "(set)" : f.xxl() + "=" + display(f.from()))
            .append(" -> ")
            .append(f.kairos())
            .append('=')
            .append(display(f.to()));
        if (f.note() != null) {
          out.append("  (").append(f.note()).append(')');
        }
        out.append('\n');
      }
      for (NotCarried n : job.notCarried()) {
        out.append("    not carried: ")
            .append(n.xxl())
            .append('=')
            .append(display(n.value()))
            .append("  (")
            .append(n.reason())
            .append(")\n");
      }
    }
    return out.toString();
  }

  private static String display(String value) {
    if (value == null) {
      return "NULL";
    }
    String oneLine = value.replace("\n", "\\n").replace("\r", "\\r");
    return "'" + (oneLine.length() <= 80 ? oneLine : oneLine.substring(0, 77) + "...") + "'";
  }
}
