package dev.kairos.node.fire;

import java.util.ArrayDeque;
import java.util.function.LongSupplier;

/**
 * Bounds the sends awaiting a broker answer. Without a bound, a node at 10k fires/s on a slow
 * broker piles up async sends until they time out or are refused ("broker busy"), and nearly every
 * fire falls into the inflight re-send path (docs/benchmarks.md, run A). With it, a slow broker
 * makes fires late instead: a send that finds the window full waits in a FIFO queue and runs as
 * soon as an earlier send is answered.
 *
 * <p>The waiting sends are already in this node's inflight set in Redis, so memory is never their
 * only copy: when the queue is full, or a send waited longer than the inflight re-send delay (the
 * sweeper has moved it back to the wheel by then, so sending it here too would only add a
 * duplicate), it is dropped from memory and the inflight sweeper re-sends it.
 *
 * <p>Thread-safe; the lock is held only to count and queue, never while sending.
 */
final class SendWindow {

  /** A send waiting for the window, with when it started waiting (nanos). */
  private record Waiting(Runnable send, long sinceNanos) {}

  private final int size;
  private final int maxWaiting;
  private final long maxWaitNanos;
  private final LongSupplier nanoTime;
  private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();

  /** Guarded by this. */
  private int inUse;

  /** Guarded by this. */
  private long expired;

  /**
   * @param size most sends awaiting a broker answer at once
   * @param maxWaiting most sends queued for the window; beyond it they are left to the sweeper
   * @param maxWaitNanos a queued send older than this is left to the sweeper
   */
  SendWindow(int size, int maxWaiting, long maxWaitNanos, LongSupplier nanoTime) {
    if (size < 1 || maxWaiting < 0) {
      throw new IllegalArgumentException("window size must be >= 1 and maxWaiting >= 0");
    }
    this.size = size;
    this.maxWaiting = maxWaiting;
    this.maxWaitNanos = maxWaitNanos;
    this.nanoTime = nanoTime;
  }

  /**
   * Runs {@code send} now (on the caller's thread) if the window has room, else queues it. A send
   * that ran holds its place until {@link #release()}.
   *
   * @return false when the queue is full: nothing was run or queued
   */
  boolean submit(Runnable send) {
    synchronized (this) {
      if (inUse >= size) {
        if (waiting.size() >= maxWaiting) {
          return false;
        }
        waiting.add(new Waiting(send, nanoTime.getAsLong()));
        return true;
      }
      inUse++;
    }
    send.run();
    return true;
  }

  /**
   * A send was answered (or never went out): its place passes to the oldest queued send that has
   * not waited too long, which the caller must run (it holds the place now), or the place is freed.
   *
   * @return the send to run next, or null
   */
  Runnable release() {
    synchronized (this) {
      long now = nanoTime.getAsLong();
      Waiting next;
      while ((next = waiting.poll()) != null) {
        if (now - next.sinceNanos() <= maxWaitNanos) {
          return next.send();
        }
        expired++;
      }
      inUse--;
      return null;
    }
  }

  synchronized int inUse() {
    return inUse;
  }

  synchronized int waiting() {
    return waiting.size();
  }

  /** Queued sends dropped because they waited longer than the re-send delay. */
  synchronized long expired() {
    return expired;
  }
}
