package dev.kairos.node.api.batch;

import dev.kairos.node.api.job.JobRequest;
import dev.kairos.node.api.web.StrictJson;
import java.util.List;

/**
 * Jobs as exported, and as imported: the export's output can be posted to the import unchanged.
 * Only user-defined fields travel; versions and timestamps belong to the cluster that stores them.
 *
 * @param formatVersion 1
 * @param exportedAtMs cluster time of the export (informational on import)
 * @param count number of jobs (informational on import)
 */
public record ExportDocument(
    Integer formatVersion, Long exportedAtMs, Integer count, List<JobRequest> jobs)
    implements StrictJson {

  public static final int FORMAT_VERSION = 1;
}
