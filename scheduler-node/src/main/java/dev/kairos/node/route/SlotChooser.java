package dev.kairos.node.route;

import dev.kairos.protocol.slot.SlotInfo;
import java.util.List;

/** Chooses the one executor slot a trigger is sent to, for one routing strategy. */
@FunctionalInterface
public interface SlotChooser {

  /**
   * @param jobId the trigger's job (per-job strategies keep their memory by it)
   * @param hosting the live slots hosting the trigger's handler: never empty, sorted by slot index
   * @param nowMs the lease clock's time when {@code hosting} was read (lease ages are judged on it)
   * @return one element of {@code hosting}
   */
  SlotInfo choose(String jobId, List<SlotInfo> hosting, long nowMs);

  /**
   * A well-mixed 32-bit hash of a job id. String hash codes of similar ids ("job-1", "job-2")
   * differ in their low bits only; the murmur3 finaliser spreads them.
   */
  static int mix(String jobId) {
    int h = jobId.hashCode();
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }
}
