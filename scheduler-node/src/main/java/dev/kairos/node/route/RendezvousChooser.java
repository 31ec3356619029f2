package dev.kairos.node.route;

import dev.kairos.protocol.slot.SlotInfo;
import java.util.List;

/**
 * CONSISTENT_HASH as rendezvous (highest-random-weight) hashing: every (job, slot) pair gets a
 * pseudo-random weight and the job goes to the live slot with the highest one. A job keeps its slot
 * while that slot stays live; when a slot leaves, only its own jobs move (spread over the others),
 * and when one joins it takes about 1/n of the jobs. Stateless, so every node agrees. O(n) with n
 * at most Q (8 by default), cheaper than a ring of virtual nodes to rebuild per change.
 */
final class RendezvousChooser implements SlotChooser {

  @Override
  public SlotInfo choose(String jobId, List<SlotInfo> hosting, long nowMs) {
    long job = SlotChooser.mix(jobId);
    SlotInfo best = hosting.get(0);
    long bestWeight = Long.MIN_VALUE;
    for (SlotInfo slot : hosting) {
      long weight = mix64((job << 32) ^ (slot.slot() * 0x9E3779B97F4A7C15L));
      if (weight > bestWeight) {
        bestWeight = weight;
        best = slot;
      }
    }
    return best;
  }

  /** SplitMix64's finaliser: a bijection on longs with good avalanche. */
  static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
