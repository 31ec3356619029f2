package dev.kairos.mq.slot;

import java.util.function.LongSupplier;

/**
 * The local, monotonic end of a lease's trust. Redis expires a lease TTL after the script ran; the
 * script ran after the renewal call was sent; so a deadline counted from the moment the call was
 * sent, minus a safety margin, ends strictly before Redis can give the slot to someone else, even
 * if this process is paused right after the reply. Wall-clock steps do not move it.
 *
 * <p>Thread-safety: written by the renewal thread, read by any consumer thread (volatile).
 */
final class LeaseDeadline {

  private final LongSupplier nanoTime;
  private final long trustedNanos;
  private volatile long deadlineNanos;
  private volatile boolean confirmedOnce;
  private volatile boolean revoked;

  LeaseDeadline(LongSupplier nanoTime, long trustedNanos) {
    this.nanoTime = nanoTime;
    this.trustedNanos = trustedNanos;
  }

  /** Call before sending a claim or renewal; pass the value to {@link #confirmed}. */
  long attemptStarted() {
    return nanoTime.getAsLong();
  }

  /** The claim or renewal sent at {@code startedNanos} succeeded. */
  void confirmed(long startedNanos) {
    if (revoked) {
      return; // a lost lease is never revived by a late reply
    }
    deadlineNanos = startedNanos + trustedNanos;
    confirmedOnce = true;
  }

  /** The lease is gone for good (lost to another instance, or released). */
  void revoke() {
    revoked = true;
  }

  boolean isValid() {
    return confirmedOnce && !revoked && nanoTime.getAsLong() - deadlineNanos < 0;
  }

  /** Nanoseconds since the last confirmed claim or renewal was sent, 0 before the first. */
  long sinceConfirmedNanos() {
    return confirmedOnce ? Math.max(0, nanoTime.getAsLong() - (deadlineNanos - trustedNanos)) : 0;
  }

  /** Nanoseconds of trust left, 0 when invalid. */
  long remainingNanos() {
    long left = deadlineNanos - nanoTime.getAsLong();
    return isValid() ? Math.max(left, 0) : 0;
  }
}
