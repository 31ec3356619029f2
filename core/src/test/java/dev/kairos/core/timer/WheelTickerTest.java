package dev.kairos.core.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.time.KairosClock;
import dev.kairos.core.time.SettableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WheelTickerTest {

  private static final Duration DEADLINE = Duration.ofSeconds(5);

  private final ExecutorService dispatchPool =
      Executors.newFixedThreadPool(
          4,
          r -> {
            Thread t = new Thread(r, "test-dispatch");
            t.setDaemon(true);
            return t;
          });
  private final List<WheelTicker<String>> tickers = new ArrayList<>();

  @AfterEach
  void tearDown() throws InterruptedException {
    tickers.forEach(WheelTicker::close);
    dispatchPool.shutdownNow();
    assertThat(dispatchPool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
  }

  private WheelTicker<String> ticker(
      KairosClock clock, int maxPending, Duration maxPark, Consumer<List<TimedEntry<String>>> c) {
    WheelTicker<String> ticker =
        new WheelTicker<>(
            "test-wheel-ticker",
            new TimingWheel<>(clock.nowMs(), maxPending),
            clock,
            dispatchPool,
            256,
            maxPark,
            c);
    tickers.add(ticker);
    return ticker;
  }

  /** An async-consumer ticker on a one-hour max park, closed after the test. */
  private WheelTicker<String> asyncTicker(
      KairosClock clock,
      Duration tick,
      java.util.function.Function<List<TimedEntry<String>>, CompletableFuture<?>> consumer) {
    WheelTicker<String> ticker =
        WheelTicker.withAsyncConsumer(
            "test-wheel-ticker",
            new TimingWheel<>(clock.nowMs(), 100),
            clock,
            dispatchPool,
            256,
            Duration.ofHours(1),
            tick,
            consumer);
    tickers.add(ticker);
    return ticker;
  }

  private static TimedEntry<String> entry(String id, long fireMs) {
    return new TimedEntry<>(id, fireMs, id);
  }

  private static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + DEADLINE + " waiting for " + what);
      }
      // Poll, don't spin: a spinning test thread would steal the ticker's core on a small box.
      java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
  }

  @Test
  void firesOnlyOnceTheClockReachesTheFireTime() throws InterruptedException {
    SettableClock clock = new SettableClock(1_000);
    LinkedBlockingQueue<String> fired = new LinkedBlockingQueue<>();
    WheelTicker<String> ticker =
        ticker(
            clock, 100, Duration.ofHours(1), batch -> batch.forEach(e -> fired.add(e.triggerId())));
    ticker.start();
    ticker.add(entry("marker", 1_499));
    ticker.add(entry("job", 1_500));

    clock.set(1_499);
    ticker.wakeUp();
    assertThat(fired.poll(5, TimeUnit.SECONDS)).isEqualTo("marker");
    // The ticker handed out everything due at 1499 in one advance; "job" was not among it.
    assertThat(fired).isEmpty();

    clock.set(1_500);
    ticker.wakeUp();
    assertThat(fired.poll(5, TimeUnit.SECONDS)).isEqualTo("job");
    await("both dispatches counted", () -> ticker.dispatchedCount() == 2);
  }

  @Test
  void anEarlierEntryWakesTheParkedTicker() throws InterruptedException {
    SettableClock clock = new SettableClock(0);
    LinkedBlockingQueue<String> fired = new LinkedBlockingQueue<>();
    // A one-hour max park: only the add's unpark can get the ticker out of its 60 s park in time.
    WheelTicker<String> ticker =
        ticker(
            clock, 100, Duration.ofHours(1), batch -> batch.forEach(e -> fired.add(e.triggerId())));
    ticker.start();
    ticker.add(entry("late", 60_000));
    await("ticker parked until 60000", () -> ticker.wakeAtMs() == 60_000);

    ticker.add(entry("early", 10));
    clock.set(10);
    assertThat(fired.poll(5, TimeUnit.SECONDS)).isEqualTo("early");
    assertThat(fired.poll(50, TimeUnit.MILLISECONDS)).isNull();
  }

  @Test
  void entryAlreadyDueIsDispatchedAtOnce() throws InterruptedException {
    SettableClock clock = new SettableClock(5_000);
    LinkedBlockingQueue<String> fired = new LinkedBlockingQueue<>();
    WheelTicker<String> ticker =
        ticker(
            clock, 100, Duration.ofHours(1), batch -> batch.forEach(e -> fired.add(e.triggerId())));
    ticker.start();
    assertThat(ticker.add(entry("overdue", 4_000))).isEqualTo(TimingWheel.AddResult.DUE);
    assertThat(fired.poll(5, TimeUnit.SECONDS)).isEqualTo("overdue");
  }

  @Test
  void removedEntryIsNotDispatchedAndReAddedEntryIs() throws InterruptedException {
    SettableClock clock = new SettableClock(0);
    LinkedBlockingQueue<String> fired = new LinkedBlockingQueue<>();
    WheelTicker<String> ticker =
        ticker(
            clock, 100, Duration.ofHours(1), batch -> batch.forEach(e -> fired.add(e.triggerId())));
    ticker.start();
    ticker.add(entry("gone", 100));
    ticker.add(entry("moved", 100));
    ticker.add(entry("marker", 200));
    assertThat(ticker.remove("gone")).isNotNull();
    ticker.add(entry("moved", 150));

    clock.set(200);
    ticker.wakeUp();
    assertThat(fired.poll(5, TimeUnit.SECONDS)).isEqualTo("moved");
    assertThat(fired.poll(5, TimeUnit.SECONDS)).isEqualTo("marker");
    assertThat(fired.poll(50, TimeUnit.MILLISECONDS)).isNull();
  }

  @Test
  void sameMillisecondBurstIsDispatchedInParallelBatches() {
    SettableClock clock = new SettableClock(0);
    int burst = 10_000;
    Set<String> fired = ConcurrentHashMap.newKeySet();
    Set<String> threads = ConcurrentHashMap.newKeySet();
    AtomicInteger batches = new AtomicInteger();
    AtomicInteger largestBatch = new AtomicInteger();
    WheelTicker<String> ticker =
        ticker(
            clock,
            burst,
            Duration.ofHours(1),
            batch -> {
              batches.incrementAndGet();
              largestBatch.accumulateAndGet(batch.size(), Math::max);
              threads.add(Thread.currentThread().getName() + "@" + Thread.currentThread().getId());
              batch.forEach(e -> fired.add(e.triggerId()));
            });
    ticker.start();
    for (int i = 0; i < burst; i++) {
      ticker.add(entry("job-" + i + ":1000", 1_000));
    }
    long started = System.nanoTime();
    clock.set(1_000);
    ticker.wakeUp();
    await("all " + burst + " entries dispatched", () -> fired.size() == burst);
    long tookMicros = (System.nanoTime() - started) / 1_000;
    System.out.printf(
        "burst of %d same-ms entries dispatched in %d µs over %d batches on %d threads%n",
        burst, tookMicros, batches.get(), threads.size());

    assertThat(batches.get()).isEqualTo((burst + 255) / 256);
    assertThat(largestBatch.get()).isEqualTo(256);
    assertThat(threads).as("batches ran on several dispatch threads").hasSizeGreaterThan(1);
    await("dispatch counted", () -> ticker.dispatchedCount() == burst);
  }

  @Test
  void neverFiresEarlyOnTheSystemClock() throws InterruptedException {
    KairosClock system = System::currentTimeMillis;
    int count = 2_000;
    long[] lateness = new long[count];
    AtomicInteger received = new AtomicInteger();
    AtomicBoolean early = new AtomicBoolean();
    WheelTicker<String> ticker =
        ticker(
            system,
            count,
            WheelTicker.DEFAULT_MAX_PARK,
            batch -> {
              long now = System.currentTimeMillis();
              for (TimedEntry<String> e : batch) {
                if (e.payload().equals("warm-up")) {
                  continue;
                }
                long late = now - e.fireMs();
                if (late < 0) {
                  early.set(true);
                }
                lateness[Integer.parseInt(e.triggerId())] = late;
              }
              received.addAndGet(
                  (int) batch.stream().filter(e -> !e.payload().equals("warm-up")).count());
            });
    ticker.start();
    // Warm-up: the first dispatches pay for class loading, JIT and the pool's thread starts.
    long warmUpBase = System.currentTimeMillis() + 50;
    for (int i = 0; i < 200; i++) {
      ticker.add(new TimedEntry<>("warm-up-" + i, warmUpBase + i % 50, "warm-up"));
    }
    await("warm-up fired", () -> ticker.dispatchedCount() == 200);
    // Far enough ahead that adding all timers (slow on a cold, busy JVM) ends before the first is
    // due.
    long base = System.currentTimeMillis() + 1_000;
    for (int i = 0; i < count; i++) {
      ticker.add(entry(Integer.toString(i), base + (i * 7L) % 1_000));
    }
    await("all timers fired", () -> received.get() == count);
    long[] sorted = lateness.clone();
    java.util.Arrays.sort(sorted);
    System.out.printf(
        "%d timers over 1 s: lateness p50 %d ms, p99 %d ms, max %d ms%n",
        count, sorted[count / 2], sorted[count * 99 / 100], sorted[count - 1]);
    System.out.printf(
        "  same load, JDK ScheduledThreadPoolExecutor baseline: %s%n", stpeBaseline(count));
    assertThat(early).as("no entry fired before its time").isFalse();
    assertThat(sorted[count * 99 / 100])
        .as("p99 lateness (ms), loose bound for a busy CI box")
        .isLessThan(250);
  }

  @Test
  void failingConsumerIsCountedAndTheTickerKeepsRunning() throws InterruptedException {
    SettableClock clock = new SettableClock(0);
    LinkedBlockingQueue<String> fired = new LinkedBlockingQueue<>();
    WheelTicker<String> ticker =
        ticker(
            clock,
            100,
            Duration.ofHours(1),
            batch -> {
              if (batch.get(0).triggerId().equals("poison")) {
                throw new IllegalStateException("boom");
              }
              batch.forEach(e -> fired.add(e.triggerId()));
            });
    ticker.start();
    ticker.add(entry("poison", 10));
    clock.set(10);
    ticker.wakeUp();
    await("failure counted", () -> ticker.dispatchErrorCount() == 1);

    ticker.add(entry("healthy", 20));
    clock.set(20);
    ticker.wakeUp();
    assertThat(fired.poll(5, TimeUnit.SECONDS)).isEqualTo("healthy");
    assertThat(ticker.loopErrorCount()).isZero();
  }

  @Test
  void fullWheelRejectsThroughTheTicker() {
    SettableClock clock = new SettableClock(0);
    WheelTicker<String> ticker = ticker(clock, 2, Duration.ofHours(1), batch -> {});
    ticker.start();
    assertThat(ticker.add(entry("a", 10))).isEqualTo(TimingWheel.AddResult.SCHEDULED);
    assertThat(ticker.add(entry("b", 10))).isEqualTo(TimingWheel.AddResult.SCHEDULED);
    assertThat(ticker.add(entry("c", 10))).isEqualTo(TimingWheel.AddResult.REJECTED);
  }

  @Test
  void lifecycleStartsOnceAndClosesIdempotently() {
    SettableClock clock = new SettableClock(0);
    WheelTicker<String> ticker = ticker(clock, 10, Duration.ofHours(1), batch -> {});
    assertThat(ticker.state()).isEqualTo(WheelTicker.State.LATENT);
    ticker.start();
    assertThat(ticker.state()).isEqualTo(WheelTicker.State.STARTED);
    assertThatThrownBy(ticker::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("test-wheel-ticker");
    assertThat(threadNamed("test-wheel-ticker")).isTrue();

    ticker.close();
    ticker.close();
    assertThat(ticker.state()).isEqualTo(WheelTicker.State.CLOSED);
    await("ticker thread gone", () -> !threadNamed("test-wheel-ticker"));
    assertThatThrownBy(ticker::start).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void anEntryWaitingInTheDispatchQueueStaysHandedOutUntilItsConsumerReturns() throws Exception {
    // One dispatch thread, busy: the entry's batch waits in the queue, as under load. A reconcile
    // that re-added every due entry it finds in Redis but not in the wheel would queue it again.
    ExecutorService single = Executors.newSingleThreadExecutor();
    java.util.concurrent.CountDownLatch busy = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch consuming = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch finish = new java.util.concurrent.CountDownLatch(1);
    try {
      single.execute(
          () -> {
            try {
              busy.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          });
      SettableClock clock = new SettableClock(1_000);
      WheelTicker<String> ticker =
          new WheelTicker<>(
              "test-wheel-ticker",
              new TimingWheel<>(clock.nowMs(), 100),
              clock,
              single,
              256,
              Duration.ofHours(1),
              batch -> {
                consuming.countDown();
                try {
                  finish.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      tickers.add(ticker);
      ticker.start();

      assertThat(ticker.add(entry("queued", 1_000))).isEqualTo(TimingWheel.AddResult.DUE);
      assertThat(ticker.isHandedOut("queued")).as("waiting in the dispatch queue").isTrue();
      busy.countDown();
      assertThat(consuming.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(ticker.isHandedOut("queued")).as("its consumer is running").isTrue();
      finish.countDown();
      await("consumer returned", () -> !ticker.isHandedOut("queued"));
      assertThat(ticker.handedOutCount()).isZero();
      assertThat(ticker.dispatchedCount()).isEqualTo(1);
    } finally {
      busy.countDown();
      finish.countDown();
      single.shutdownNow();
    }
  }

  @Test
  void anAsyncConsumersBatchStaysHandedOutUntilItsStageCompletesAndFailuresAreCounted()
      throws Exception {
    SettableClock clock = new SettableClock(1_000);
    java.util.Map<String, java.util.concurrent.CompletableFuture<Void>> stages =
        new java.util.concurrent.ConcurrentHashMap<>();
    WheelTicker<String> ticker =
        asyncTicker(
            clock,
            Duration.ZERO,
            batch -> {
              java.util.concurrent.CompletableFuture<Void> stage =
                  new java.util.concurrent.CompletableFuture<>();
              stages.put(batch.get(0).triggerId(), stage);
              return stage;
            });
    ticker.start();

    ticker.add(entry("ok", 1_000));
    ticker.add(entry("fails", 1_000));
    await("both consumers called", () -> stages.size() == 2);
    // The consumer returned at once, but its work (a take in Redis) is still running.
    assertThat(ticker.isHandedOut("ok")).isTrue();
    assertThat(ticker.isHandedOut("fails")).isTrue();

    stages.get("ok").complete(null);
    await("ok released", () -> !ticker.isHandedOut("ok"));
    assertThat(ticker.isHandedOut("fails")).as("its stage is still running").isTrue();
    assertThat(ticker.dispatchedCount()).isEqualTo(1);

    stages.get("fails").completeExceptionally(new IllegalStateException("take failed"));
    await("fails released", () -> !ticker.isHandedOut("fails"));
    assertThat(ticker.dispatchErrorCount()).isEqualTo(1);
    assertThat(ticker.dispatchedCount()).isEqualTo(1);
  }

  @Test
  void aRefusedBatchIsNotHandedOutSoTheReconcileCanAddItBack() {
    SettableClock clock = new SettableClock(1_000);
    WheelTicker<String> ticker =
        new WheelTicker<>(
            "test-wheel-ticker",
            new TimingWheel<>(clock.nowMs(), 100),
            clock,
            r -> {
              throw new java.util.concurrent.RejectedExecutionException("queue full");
            },
            256,
            Duration.ofHours(1),
            batch -> {});
    tickers.add(ticker);

    assertThat(ticker.add(entry("refused", 1_000))).isEqualTo(TimingWheel.AddResult.DUE);
    assertThat(ticker.add(entry("refused", 1_000))).isEqualTo(TimingWheel.AddResult.DUE);

    assertThat(ticker.isHandedOut("refused")).isFalse();
    assertThat(ticker.dispatchErrorCount()).isEqualTo(2);
  }

  /** The same timers on a JDK scheduler, so a busy machine's numbers can be read in context. */
  private static String stpeBaseline(int count) throws InterruptedException {
    java.util.concurrent.ScheduledThreadPoolExecutor stpe =
        new java.util.concurrent.ScheduledThreadPoolExecutor(1);
    long[] lateness = new long[count];
    java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(count);
    // Far enough ahead that adding all timers (slow on a cold, busy JVM) ends before the first is
    // due.
    long base = System.currentTimeMillis() + 1_000;
    for (int i = 0; i < count; i++) {
      int index = i;
      long fireMs = base + (i * 7L) % 1_000;
      stpe.schedule(
          () -> {
            lateness[index] = System.currentTimeMillis() - fireMs;
            done.countDown();
          },
          fireMs - System.currentTimeMillis(),
          TimeUnit.MILLISECONDS);
    }
    done.await(10, TimeUnit.SECONDS);
    stpe.shutdownNow();
    java.util.Arrays.sort(lateness);
    return String.format(
        "p50 %d ms, p99 %d ms, max %d ms",
        lateness[count / 2], lateness[count * 99 / 100], lateness[count - 1]);
  }

  private static boolean threadNamed(String name) {
    Set<String> names = new HashSet<>();
    Thread.getAllStackTraces().keySet().forEach(t -> names.add(t.getName()));
    return names.contains(name);
  }

  @Test
  void aTickHandsOutEachTicksFiresTogetherAtItsEndNeverEarlier() throws InterruptedException {
    SettableClock clock = new SettableClock(1_000);
    LinkedBlockingQueue<List<String>> batches = new LinkedBlockingQueue<>();
    WheelTicker<String> ticker =
        asyncTicker(
            clock,
            Duration.ofMillis(10),
            batch -> {
              batches.add(batch.stream().map(TimedEntry::triggerId).toList());
              return CompletableFuture.completedFuture(null);
            });
    assertThat(ticker.handOutAt(1_001)).isEqualTo(1_010);
    assertThat(ticker.handOutAt(1_010)).isEqualTo(1_010);
    assertThat(ticker.handOutAt(1_011)).isEqualTo(1_020);
    ticker.start();
    ticker.add(entry("a", 1_001));
    ticker.add(entry("b", 1_005));
    ticker.add(entry("c", 1_010));
    ticker.add(entry("d", 1_011));
    // Parked for the end of the first tick, not for the first entry's own millisecond.
    await("ticker parked until 1010", () -> ticker.wakeAtMs() == 1_010);

    clock.set(1_010);
    ticker.wakeUp();
    assertThat(batches.poll(5, TimeUnit.SECONDS)).containsExactlyInAnyOrder("a", "b", "c");
    await("ticker parked until 1020", () -> ticker.wakeAtMs() == 1_020);
    assertThat(batches).isEmpty();

    clock.set(1_020);
    ticker.wakeUp();
    assertThat(batches.poll(5, TimeUnit.SECONDS)).containsExactly("d");
  }

  @Test
  void aTickCoarserThanTheLimitIsRefused() {
    SettableClock clock = new SettableClock(0);
    assertThatThrownBy(
            () ->
                WheelTicker.withAsyncConsumer(
                    "test-wheel-ticker",
                    new TimingWheel<String>(0, 10),
                    clock,
                    dispatchPool,
                    256,
                    Duration.ofSeconds(1),
                    Duration.ofMillis(101),
                    batch -> CompletableFuture.completedFuture(null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tick");
  }
}
