package dev.kairos.migrate.xxljob.mapping;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.migrate.xxljob.report.JobReport;
import java.util.Map;

/**
 * One xxl-job job after mapping: its report line and, when it is imported, the Kairos job.
 *
 * @param definition the job, or {@code null} when the verdict is SKIP
 * @param extras body fields beyond {@link JobDefinition} (see {@link ExtraColumn#carried})
 */
public record MappedJob(JobReport report, JobDefinition definition, Map<String, Object> extras) {

  public MappedJob {
    extras = Map.copyOf(extras);
  }

  public boolean importable() {
    return definition != null;
  }
}
