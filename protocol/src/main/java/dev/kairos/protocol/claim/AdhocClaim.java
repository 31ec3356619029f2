package dev.kairos.protocol.claim;

import java.util.Objects;

/**
 * The claim of one ad-hoc trigger inside a {@link ClaimBatch}: a CAS on its entry in the shard's
 * ad-hoc ZSET, then a wheel entry at its due time on {@code node}.
 */
public record AdhocClaim(String triggerId, String jobId, long dueMs, String node) {
  public AdhocClaim {
    Objects.requireNonNull(triggerId, "triggerId");
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(node, "node");
  }
}
