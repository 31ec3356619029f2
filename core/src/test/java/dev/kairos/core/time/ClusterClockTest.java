package dev.kairos.core.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.error.KairosException;
import dev.kairos.devinfra.Poll;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ClusterClockTest {

  private static final long REFERENCE_EPOCH_MS = 1_750_000_000_000L;

  /**
   * A simulated world: one true time line; the local monotonic clock is that time plus an arbitrary
   * origin; the reference answers with the true time after a chosen outbound delay, and the reply
   * takes a chosen return delay.
   */
  private static final class World implements MonotonicSource, ReferenceTimeSource {
    final AtomicLong trueNanos = new AtomicLong();
    final long monotonicOrigin;
    final Deque<long[]> delays = new ArrayDeque<>(); // {outbound, return} nanos per read
    String reference = "master-a";
    RuntimeException failure;

    World(long monotonicOrigin) {
      this.monotonicOrigin = monotonicOrigin;
    }

    @Override
    public long nanos() {
      return monotonicOrigin + trueNanos.get();
    }

    @Override
    public Reading read() {
      if (failure != null) {
        throw failure;
      }
      long[] d = delays.isEmpty() ? new long[] {500_000, 500_000} : delays.removeFirst();
      trueNanos.addAndGet(d[0]);
      long micros = REFERENCE_EPOCH_MS * 1_000 + trueNanos.get() / 1_000;
      trueNanos.addAndGet(d[1]);
      return new Reading(micros, reference);
    }

    long trueMs() {
      return REFERENCE_EPOCH_MS + trueNanos.get() / 1_000_000;
    }

    void advance(Duration d) {
      trueNanos.addAndGet(d.toNanos());
    }
  }

  private static ClusterClock clock(World world) {
    return new ClusterClock(world, world, Duration.ofHours(1), 4);
  }

  @Test
  void aReplyThatReturnsAtOnceGivesTheReferenceTimeExactly() {
    World world = new World(123_456_789L);
    world.delays.add(new long[] {3_000_000, 0});
    try (ClusterClock clock = clock(world)) {
      clock.start();
      world.advance(Duration.ofSeconds(42));
      assertThat(clock.nowMs()).isEqualTo(world.trueMs());
    }
  }

  @Test
  void neverAheadOfTheReferenceAndBehindByAtMostTheRoundTrip() {
    long[][] delays = {
      {9_000_000, 1_000_000}, {1_000_000, 9_000_000}, {0, 40_000_000}, {40_000_000, 0}
    };
    for (long[] d : delays) {
      World world = new World(0);
      world.delays.add(d);
      try (ClusterClock clock = clock(world)) {
        clock.start();
        world.advance(Duration.ofMillis(7));
        long error = clock.nowMs() - world.trueMs();
        long roundTripMs = (d[0] + d[1]) / 1_000_000;
        assertThat(error).as("out %d ns, back %d ns", d[0], d[1]).isBetween(-roundTripMs, 0L);
      }
    }
  }

  @Test
  void aReplyDelayedOnItsWayBackMakesTheClockLateByThatDelayNotEarly() {
    World world = new World(0);
    world.delays.add(new long[] {9_000_000, 1_000_000}); // asymmetric: 9 ms out, 1 ms back
    try (ClusterClock clock = clock(world)) {
      clock.start();
      // Half-way (the old rule) would have run 4 ms ahead and fired that early.
      assertThat(clock.nowMs() - world.trueMs()).isEqualTo(-1);
    }
  }

  @Test
  void localClockOriginDoesNotMatterSoAWallClockTwoSecondsAheadChangesNothing() {
    // Two nodes whose local clocks disagree by 2 s (and a third with an arbitrary origin) read the
    // same reference: they agree on cluster time, because only the reference defines it.
    World exact = new World(REFERENCE_EPOCH_MS * 1_000_000);
    World ahead = new World(REFERENCE_EPOCH_MS * 1_000_000 + 2_000_000_000L);
    World arbitrary = new World(-987_654_321_000L);
    try (ClusterClock a = clock(exact);
        ClusterClock b = clock(ahead);
        ClusterClock c = clock(arbitrary)) {
      a.start();
      b.start();
      c.start();
      for (World w : new World[] {exact, ahead, arbitrary}) {
        w.advance(Duration.ofMillis(1_500));
      }
      assertThat(b.nowMs()).isEqualTo(a.nowMs());
      assertThat(c.nowMs()).isEqualTo(a.nowMs());
      assertThat(a.nowMs()).isBetween(exact.trueMs() - 1, exact.trueMs());
    }
  }

  @Test
  void theSampleGivingTheLatestTimeWins() {
    World world = new World(0);
    world.delays.add(new long[] {0, 40_000_000}); // slow reply: 40 ms behind
    try (ClusterClock clock = clock(world)) {
      clock.start();
      assertThat(clock.nowMs() - world.trueMs()).isEqualTo(-40);

      world.delays.add(new long[] {100_000, 0}); // quick: exact
      clock.sample();
      world.delays.add(new long[] {30_000_000, 0}); // slow out, quick back: exact too, kept out
      clock.sample();
      world.delays.add(new long[] {0, 30_000_000}); // slow back: 30 ms behind
      clock.sample();

      assertThat(clock.nowMs()).isEqualTo(world.trueMs());
      assertThat(clock.roundTripNanos()).isIn(100_000L, 30_000_000L);
    }
  }

  @Test
  void neverGoesBackwardsWhenTheBestSampleLeavesTheWindow() {
    World world = new World(0);
    world.delays.add(new long[] {0, 0}); // exact
    try (ClusterClock clock = clock(world)) { // a window of 4 samples
      clock.start();
      for (int i = 0; i < 3; i++) {
        world.delays.add(new long[] {0, 20_000_000}); // each 20 ms behind
        clock.sample();
      }
      long exact = clock.nowMs();
      assertThat(exact).isEqualTo(world.trueMs());

      world.delays.add(new long[] {0, 20_000_000});
      clock.sample(); // the exact sample leaves: the best is now 20 ms behind
      assertThat(clock.nowMs()).isEqualTo(exact); // stands still instead of stepping back
      world.advance(Duration.ofMillis(30));
      assertThat(clock.nowMs()).isEqualTo(world.trueMs() - 20);
    }
  }

  @Test
  void failedSamplesAreCountedAndTheLastOffsetIsKept() {
    World world = new World(0);
    try (ClusterClock clock = clock(world)) {
      clock.start();
      world.failure = new IllegalStateException("connection refused");
      assertThatThrownBy(clock::sample).isInstanceOf(IllegalStateException.class);
      world.advance(Duration.ofSeconds(3));
      assertThat(clock.nowMs()).isBetween(world.trueMs() - 1, world.trueMs());
    }
  }

  @Test
  void samplingThreadKeepsRunningAfterFailures() {
    World world = new World(0);
    world.failure = null;
    AtomicLong reads = new AtomicLong();
    ReferenceTimeSource flaky =
        () -> {
          if (reads.incrementAndGet() % 2 == 0) {
            throw new IllegalStateException("every other read fails");
          }
          return world.read();
        };
    try (ClusterClock clock = new ClusterClock(flaky, world, Duration.ofMillis(5), 4)) {
      clock.start();
      // The sampler runs every 5 ms.
      Poll.until(
          Duration.ofSeconds(10), Duration.ofMillis(1), "5 samples", () -> clock.samples() >= 5);
      assertThat(clock.failures()).isGreaterThanOrEqualTo(4);
    }
  }

  @Test
  void referenceChangeDiscardsReadingsOfTheOldReference() {
    World world = new World(0);
    try (ClusterClock clock = clock(world)) {
      clock.start(); // a quick 1 ms sample from master-a
      world.reference = "master-b";
      world.delays.add(new long[] {5_000_000, 5_000_000}); // slower, but the only one of master-b
      clock.sample();
      assertThat(clock.reference()).isEqualTo("master-b");
      assertThat(clock.roundTripNanos()).isEqualTo(10_000_000);
    }
  }

  @Test
  void lifecycleIsExplicit() {
    World world = new World(0);
    ClusterClock clock = clock(world);
    assertThatThrownBy(clock::nowMs).isInstanceOf(IllegalStateException.class);
    clock.start();
    assertThatThrownBy(clock::start).isInstanceOf(IllegalStateException.class);
    clock.close();
    clock.close();
    assertThatThrownBy(clock::start).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void startFailsWhenTheReferenceIsUnreachable() {
    World world = new World(0);
    world.failure = new IllegalStateException("down");
    try (ClusterClock clock = clock(world)) {
      assertThatThrownBy(clock::start)
          .isInstanceOf(KairosException.class)
          .hasRootCauseMessage("down");
      assertThat(clock.failures()).isEqualTo(3);
    }
  }
}
