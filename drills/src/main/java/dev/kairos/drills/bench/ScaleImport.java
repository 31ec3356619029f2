package dev.kairos.drills.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Imports jobs {@code from..to-1} of the mix through {@code POST /api/v1/job-import}, {@link
 * JobApi#MAX_BATCH} per call, with {@code callers} calls in flight (each caller sends its next call
 * when its last one answered, as a user's script with that many workers would), while the cluster
 * fires what is already stored. Prints a line every tenth of the way.
 */
final class ScaleImport {

  static final Duration DEADLINE = Duration.ofMinutes(30);

  /** What the import took. */
  record Result(long added, int calls, int callers, double seconds) {
    double jobsPerSecond() {
      return seconds <= 0 ? Double.NaN : added / seconds;
    }
  }

  private ScaleImport() {}

  static Result run(BenchCluster cluster, ScaleStore store, long to, int callers, String label)
      throws InterruptedException {
    long from = store.size();
    long startMs = System.currentTimeMillis();
    long began = System.nanoTime();
    AtomicLong next = new AtomicLong(from);
    AtomicLong done = new AtomicLong();
    AtomicInteger calls = new AtomicInteger();
    long step = Math.max(JobApi.MAX_BATCH, (to - from) / 10);
    ExecutorService pool =
        Executors.newFixedThreadPool(
            callers,
            r -> {
              Thread t = new Thread(r, "scale-bench-import");
              t.setDaemon(true);
              return t;
            });
    List<Future<?>> workers = new ArrayList<>();
    for (int c = 0; c < callers; c++) {
      workers.add(
          pool.submit(
              () -> {
                long first;
                while ((first = next.getAndAdd(JobApi.MAX_BATCH)) < to) {
                  long last = Math.min(to, first + JobApi.MAX_BATCH);
                  List<Map<String, Object>> jobs = new ArrayList<>((int) (last - first));
                  for (long i = first; i < last; i++) {
                    jobs.add(store.mix().spec(i, startMs).importJob(cluster.app()));
                  }
                  cluster.api().importJobs(jobs);
                  calls.incrementAndGet();
                  long before = done.getAndAdd(last - first);
                  if ((before + last - first) / step > before / step) {
                    double s = (System.nanoTime() - began) / 1e9;
                    BenchOut.say(
                        "%s: imported %,d of %,d jobs in %.1f s (%,.0f jobs/s)",
                        label, before + last - first, to - from, s, (before + last - first) / s);
                  }
                }
                return null;
              }));
    }
    try {
      long deadline = began + DEADLINE.toNanos();
      for (Future<?> worker : workers) {
        worker.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      }
    } catch (ExecutionException e) {
      throw new IllegalStateException(label + ": import failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          label + ": importing " + (to - from) + " jobs took over " + DEADLINE, e);
    } finally {
      pool.shutdownNow();
    }
    double seconds = (System.nanoTime() - began) / 1e9;
    store.added(from, to, startMs);
    return new Result(to - from, calls.get(), callers, seconds);
  }
}
