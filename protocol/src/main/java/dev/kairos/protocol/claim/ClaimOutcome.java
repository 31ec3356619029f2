package dev.kairos.protocol.claim;

import java.util.List;

/**
 * What one {@link ClaimBatch} call did.
 *
 * @param accepted false when the shard is fenced by a higher term: nothing was written
 * @param fence the shard's fence after the call (the caller's term when accepted)
 * @param duplicates fires not claimed because their trigger record already existed
 * @param perJob per job of the batch, in order: fires claimed, or {@link #CAS_SKIPPED}
 * @param perAdhoc per ad-hoc trigger of the batch, in order: whether this call claimed it (false:
 *     another scanner did, or its request was gone)
 * @param skippedRecorded fires recorded SKIPPED because a calendar excludes them (not those whose
 *     job the CAS skipped, nor those already recorded)
 */
public record ClaimOutcome(
    int shard,
    long term,
    boolean accepted,
    long fence,
    int duplicates,
    List<Integer> perJob,
    List<Boolean> perAdhoc,
    int skippedRecorded) {

  /** The job's due score or schedule version had changed: nothing of it was written. */
  public static final int CAS_SKIPPED = -1;

  public ClaimOutcome(
      int shard,
      long term,
      boolean accepted,
      long fence,
      int duplicates,
      List<Integer> perJob,
      List<Boolean> perAdhoc) {
    this(shard, term, accepted, fence, duplicates, perJob, perAdhoc, 0);
  }

  public ClaimOutcome {
    perJob = List.copyOf(perJob);
    perAdhoc = List.copyOf(perAdhoc);
  }

  static ClaimOutcome rejected(int shard, long term, long fence) {
    return new ClaimOutcome(shard, term, false, fence, 0, List.of(), List.of());
  }

  /** Ad-hoc triggers this call claimed. */
  public int claimedAdhoc() {
    return (int) perAdhoc.stream().filter(Boolean::booleanValue).count();
  }

  public boolean adhocClaimed(int adhocIndex) {
    return perAdhoc.get(adhocIndex);
  }

  public int claimedFires() {
    return perJob.stream().mapToInt(Integer::intValue).filter(n -> n > 0).sum();
  }

  public int casSkips() {
    return (int) perJob.stream().filter(n -> n == CAS_SKIPPED).count();
  }

  public boolean skipped(int jobIndex) {
    return perJob.get(jobIndex) == CAS_SKIPPED;
  }
}
