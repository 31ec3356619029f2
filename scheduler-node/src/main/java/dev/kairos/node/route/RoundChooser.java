package dev.kairos.node.route;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.kairos.protocol.slot.SlotInfo;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;

/**
 * ROUND: each job walks the live hosting slots in slot order, one step per fire, with a per-job
 * counter kept by this node. The counter starts at a random position so that jobs created together
 * do not all begin on the first slot. Per node: two nodes firing the same job keep separate
 * counters (a job's fires are assigned by the leader to nodes by its balancing strategy, by default
 * a consistent hash on the job id, so one node usually fires all of a job's triggers).
 */
final class RoundChooser implements SlotChooser {

  private final PerJobMemory<AtomicInteger> counters;

  RoundChooser(IntUnaryOperator randomBelow, Ticker ticker) {
    this.counters =
        new PerJobMemory<>(job -> new AtomicInteger(randomBelow.applyAsInt(1 << 16)), ticker);
  }

  @Override
  public SlotInfo choose(String jobId, List<SlotInfo> hosting, long nowMs) {
    int step = counters.of(jobId).getAndIncrement();
    return hosting.get(Math.floorMod(step, hosting.size()));
  }
}
