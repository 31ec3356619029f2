package dev.kairos.bench;

import dev.kairos.core.timer.TimedEntry;
import dev.kairos.core.timer.TimingWheel;
import dev.kairos.core.timer.WheelTicker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Lateness of the node's in-memory wheel alone: {@link TimingWheel} driven by a {@link WheelTicker}
 * on a microsecond wall clock, dispatch executor of 4 threads and batches of 64 (the node's
 * defaults). Lateness = time the consumer receives an entry − its fire time. Nothing else runs in
 * the consumer (no Redis, no MQ).
 *
 * <p>Args: {@code [seconds=20] [perSecond list=1000,10000] [workloads=W1,W2]}.
 */
public final class WheelLatenessBench {

  static final int DISPATCH_THREADS = 4;
  static final int BATCH_SIZE = 64;

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    int[] rates =
        args.length > 1
            ? java.util.Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray()
            : new int[] {1_000, 10_000};
    String[] workloads = args.length > 2 ? args[2].split(",") : new String[] {"W1", "W2"};
    System.out.println("WheelLatenessBench start: " + Machine.describe());
    run(Workload.W1, 10_000, 3, false); // JIT warm-up, not reported
    List<String> rows = new ArrayList<>();
    for (String w : workloads) {
      for (int rate : rates) {
        rows.add(run(Workload.valueOf(w), rate, seconds, true));
        System.out.println(rows.get(rows.size() - 1));
      }
    }
    System.out.println("WheelLatenessBench end: load average " + Machine.loadAverage());
    System.out.println(
        "| workload | timers/s | seconds | fires | p50 ms | p99 ms | p99.9 ms | max ms | missed |"
            + " load before → after |");
    rows.forEach(System.out::println);
  }

  static String run(Workload workload, int perSecond, int seconds, boolean report)
      throws Exception {
    String loadBefore = Machine.loadAverage();
    MicroClock clock = new MicroClock();
    Recorder lateness = new Recorder(perSecond * seconds);
    TimingWheel<Void> wheel = new TimingWheel<>(clock.nowMs(), TimingWheel.DEFAULT_MAX_PENDING);
    ExecutorService dispatch = Executors.newFixedThreadPool(DISPATCH_THREADS);
    WheelTicker<Void> ticker =
        new WheelTicker<>(
            "bench-ticker",
            wheel,
            clock,
            dispatch,
            BATCH_SIZE,
            WheelTicker.DEFAULT_MAX_PARK,
            batch -> {
              long now = clock.nowMicros();
              for (TimedEntry<Void> e : batch) {
                lateness.record(now - e.fireMs() * 1000);
              }
            });
    ticker.start();
    long total = (long) perSecond * seconds;
    try {
      Feeder.feed(
          clock,
          workload,
          perSecond,
          seconds,
          2,
          (i, fireMs) -> ticker.add(new TimedEntry<>("bench-" + i + ":" + fireMs, fireMs, null)));
      Feeder.await(10_000, () -> ticker.dispatchedCount() >= total);
    } finally {
      ticker.close();
      dispatch.shutdown();
      dispatch.awaitTermination(5, TimeUnit.SECONDS);
    }
    long missed = total - ticker.dispatchedCount();
    long[] sorted = lateness.sorted();
    String row =
        String.format(
            "| %s | %,d | %d | %,d | %s | %d | %s → %s |",
            workload,
            perSecond,
            seconds,
            sorted.length,
            Recorder.summaryMs(sorted).trim().replaceAll("\\s+", " | "),
            missed,
            loadBefore,
            Machine.loadAverage());
    return report ? row : "(warm-up) " + row;
  }

  private WheelLatenessBench() {}
}
