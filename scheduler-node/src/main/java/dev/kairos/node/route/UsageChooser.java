package dev.kairos.node.route;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.kairos.protocol.slot.SlotInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * LEAST_FREQUENTLY_USED and LEAST_RECENTLY_USED: per job, this node remembers a score per slot and
 * sends each fire to the live hosting slot with the lowest one. For LFU the score is how many of
 * the job's fires this node sent to the slot; for LRU it is the sequence number of the job's last
 * fire sent there (0 = never). Ties go to one of the tied slots chosen by the job id's hash, so
 * jobs created together spread out instead of all starting on the first slot.
 *
 * <p>A slot the job has not seen yet (an executor that just joined) starts, under LFU, at the
 * lowest count among the job's live slots: otherwise it would take every fire until it caught up.
 * Per node, as with ROUND.
 */
final class UsageChooser implements SlotChooser {

  /** One job's scores; guarded by its own monitor (fires of one job rarely overlap). */
  private static final class Usage {
    final Map<Integer, Long> score = new HashMap<>();
    long sequence;
  }

  private final boolean frequency;
  private final PerJobMemory<Usage> usage;

  private UsageChooser(boolean frequency, Ticker ticker) {
    this.frequency = frequency;
    this.usage = new PerJobMemory<>(job -> new Usage(), ticker);
  }

  static UsageChooser leastFrequentlyUsed(Ticker ticker) {
    return new UsageChooser(true, ticker);
  }

  static UsageChooser leastRecentlyUsed(Ticker ticker) {
    return new UsageChooser(false, ticker);
  }

  @Override
  public SlotInfo choose(String jobId, List<SlotInfo> hosting, long nowMs) {
    Usage u = usage.of(jobId);
    synchronized (u) {
      if (frequency) {
        long floor = Long.MAX_VALUE;
        for (SlotInfo slot : hosting) {
          Long known = u.score.get(slot.slot());
          if (known != null) {
            floor = Math.min(floor, known);
          }
        }
        long start = floor == Long.MAX_VALUE ? 0 : floor;
        hosting.forEach(slot -> u.score.putIfAbsent(slot.slot(), start));
      }
      List<SlotInfo> lowest = new ArrayList<>();
      long min = Long.MAX_VALUE;
      for (SlotInfo slot : hosting) {
        long score = u.score.getOrDefault(slot.slot(), 0L);
        if (score < min) {
          min = score;
          lowest.clear();
        }
        if (score == min) {
          lowest.add(slot);
        }
      }
      SlotInfo chosen = lowest.get(Math.floorMod(SlotChooser.mix(jobId), lowest.size()));
      if (frequency) {
        u.score.merge(chosen.slot(), 1L, Long::sum);
      } else {
        u.score.put(chosen.slot(), ++u.sequence);
      }
      return chosen;
    }
  }
}
