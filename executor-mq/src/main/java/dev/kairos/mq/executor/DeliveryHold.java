package dev.kairos.mq.executor;

import dev.kairos.core.time.KairosClock;
import dev.kairos.core.timer.TimedEntry;
import dev.kairos.core.timer.TimingWheel;
import dev.kairos.core.timer.WheelTicker;
import java.util.function.Consumer;

/**
 * Deliveries that arrive before their fire time wait here until it comes: a scheduler node sends a
 * trigger its pre-dispatch lead ahead ({@code kairos.fire.pre-dispatch}), so a burst's messages are
 * taken, sent and received before it is due, and at the fire time only the start claims remain. A
 * delivery already due is released at once. Nothing is released early: the ticker hands an entry
 * out only once the cluster clock (the same reference the nodes fire on) has reached its fire time.
 *
 * <p>A held delivery has not started, so its offset is not committed: if this executor dies, the
 * slot's next owner (or the scheduler's re-dispatch) receives it again.
 *
 * <p>Thread-safety: {@link #hold} from the poll thread; releases run on the ticker thread (or the
 * poll thread for a delivery already due).
 */
final class DeliveryHold implements AutoCloseable {

  /** Released deliveries are handed on in batches of this many. */
  private static final int BATCH = 256;

  private final TimingWheel<Delivery> wheel;
  private final WheelTicker<Delivery> ticker;

  /**
   * @param maxHeld the most deliveries waiting at once; the poll thread stops polling before it
   * @param release where a due delivery goes (its job's runner)
   */
  DeliveryHold(String name, KairosClock clock, int maxHeld, Consumer<Delivery> release) {
    // Polls overshoot the bound by at most one poll's worth of messages.
    this.wheel = new TimingWheel<>(clock.nowMs(), maxHeld + 10_000);
    this.ticker =
        new WheelTicker<>(
            name,
            wheel,
            clock,
            Runnable::run,
            BATCH,
            WheelTicker.DEFAULT_MAX_PARK,
            batch -> batch.forEach(entry -> release.accept(entry.payload())));
  }

  void start() {
    ticker.start();
  }

  /**
   * Holds {@code delivery} until its fire time, or releases it at once when it is due.
   *
   * @return false when the hold is full (the delivery is neither held nor released)
   */
  boolean hold(Delivery delivery) {
    TimingWheel.AddResult result =
        ticker.add(
            new TimedEntry<>(delivery.key(), delivery.trigger().scheduledFireMs(), delivery));
    return result != TimingWheel.AddResult.REJECTED;
  }

  /** Deliveries waiting for their fire time. */
  int size() {
    return wheel.size();
  }

  /** Stops releasing; what is held stays uncommitted for the slot's next owner. */
  @Override
  public void close() {
    ticker.close();
  }
}
