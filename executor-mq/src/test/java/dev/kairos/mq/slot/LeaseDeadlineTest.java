package dev.kairos.mq.slot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LeaseDeadlineTest {

  private final AtomicLong now = new AtomicLong(1_000);
  private final LeaseDeadline deadline =
      new LeaseDeadline(now::get, TimeUnit.MILLISECONDS.toNanos(9_000));

  private void advanceMs(long ms) {
    now.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
  }

  @Test
  void invalidUntilTheFirstClaimIsConfirmed() {
    assertThat(deadline.isValid()).isFalse();
    deadline.confirmed(deadline.attemptStarted());
    assertThat(deadline.isValid()).isTrue();
  }

  @Test
  void trustIsCountedFromWhenTheRenewalWasSentNotWhenItWasAnswered() {
    long sent = deadline.attemptStarted();
    advanceMs(4_000); // a slow reply
    deadline.confirmed(sent);
    advanceMs(4_999);
    assertThat(deadline.isValid()).isTrue();
    advanceMs(1);
    assertThat(deadline.isValid()).isFalse();
  }

  @Test
  void aPausedInstanceStopsTrustingItsLeaseWithoutHearingFromRedis() {
    deadline.confirmed(deadline.attemptStarted());
    advanceMs(8_999);
    assertThat(deadline.isValid()).isTrue();
    advanceMs(60_000); // SIGSTOP, long GC
    assertThat(deadline.isValid()).isFalse();
    assertThat(deadline.remainingNanos()).isZero();
  }

  @Test
  void eachRenewalMovesTheDeadline() {
    deadline.confirmed(deadline.attemptStarted());
    for (int i = 0; i < 10; i++) {
      advanceMs(3_000);
      deadline.confirmed(deadline.attemptStarted());
    }
    advanceMs(8_000);
    assertThat(deadline.isValid()).isTrue();
  }

  @Test
  void aRevokedLeaseIsNotRevivedByALateConfirmation() {
    long sent = deadline.attemptStarted();
    deadline.confirmed(sent);
    deadline.revoke();
    deadline.confirmed(deadline.attemptStarted());
    assertThat(deadline.isValid()).isFalse();
  }
}
