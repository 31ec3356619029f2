package dev.kairos.coordinator.scan;

/**
 * What one scan pass over all shards did.
 *
 * @param jobsSeen due jobs read from the shards' due sets
 * @param firesClaimed fires written to node wheels
 * @param casSkips jobs skipped because their score or schedule version changed under the scan
 * @param duplicates fires not claimed because their trigger record already existed
 * @param misfires jobs whose due fire was older than their misfire threshold
 * @param jobErrors jobs whose hash or schedule could not be read (logged with the job id)
 * @param batches claim script calls
 * @param adhocClaimed ad-hoc triggers (manual, retry, child) written to node wheels
 */
public record ScanReport(
    long term,
    int jobsSeen,
    int firesClaimed,
    int casSkips,
    int duplicates,
    int misfires,
    int jobErrors,
    int batches,
    long durationMs,
    int adhocClaimed) {

  public ScanReport(
      long term,
      int jobsSeen,
      int firesClaimed,
      int casSkips,
      int duplicates,
      int misfires,
      int jobErrors,
      int batches,
      long durationMs) {
    this(
        term,
        jobsSeen,
        firesClaimed,
        casSkips,
        duplicates,
        misfires,
        jobErrors,
        batches,
        durationMs,
        0);
  }
}
