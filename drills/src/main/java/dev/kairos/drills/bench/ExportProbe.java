package dev.kairos.drills.bench;

import dev.kairos.drills.DrillNode;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One {@code GET /api/v1/job-export} of every job through the front node, its body counted and
 * dropped as it streams in ({@link JobApi#download}), while the node's heap ({@code
 * jvm_memory_used_bytes{area="heap"}}) is read every 250 ms: before, at its peak, after. The node
 * streams the export (docs/api.md "Batches, export and import"), so the peak should not grow with
 * the jobs exported; heap in use includes garbage not yet collected, so the peak is an upper bound.
 */
final class ExportProbe {

  private static final Duration EXPORT_TIMEOUT = Duration.ofMinutes(10);
  private static final long HEAP_EVERY_MS = 250;

  /** The export: status (-1: no answer), wall time, bytes and the node's heap, in bytes. */
  record Export(
      int status, double seconds, long bytes, long heapBefore, long heapPeak, long heapAfter) {}

  private ExportProbe() {}

  static Export run(BenchCluster cluster, long jobs, String label) throws InterruptedException {
    DrillNode node = cluster.front();
    long before = heap(node);
    AtomicLong peak = new AtomicLong(before);
    Thread sampler =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                peak.accumulateAndGet(heap(node), Math::max);
                try {
                  Thread.sleep(HEAP_EVERY_MS);
                } catch (InterruptedException e) {
                  return; // the export is over
                }
              }
            },
            "scale-bench-heap");
    sampler.setDaemon(true);
    sampler.start();
    JobApi.Fetched f;
    try {
      f = cluster.api().download("/api/v1/job-export", EXPORT_TIMEOUT);
    } catch (RuntimeException e) {
      BenchOut.say("%s: API export failed: %s", label, e);
      f = new JobApi.Fetched(-1, 0, Double.NaN, null);
    } finally {
      sampler.interrupt();
      sampler.join(5_000);
    }
    long after = heap(node);
    peak.accumulateAndGet(after, Math::max);
    Export export = new Export(f.status(), f.millis() / 1e3, f.bytes(), before, peak.get(), after);
    BenchOut.say(
        "%s: API export of %,d jobs: status %d, %.1f s, %,d B; node heap before / peak / after %s"
            + " / %s / %s MB",
        label,
        jobs,
        export.status(),
        export.seconds(),
        export.bytes(),
        mb(export.heapBefore()),
        mb(export.heapPeak()),
        mb(export.heapAfter()));
    return export;
  }

  /** The node's heap in use now (bytes), or -1 when it does not answer. */
  private static long heap(DrillNode node) {
    try {
      return (long) node.probe().metric("jvm_memory_used_bytes", Map.of("area", "heap"));
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /** Bytes as MB for a table cell, "–" for -1. */
  static String mb(long bytes) {
    return bytes < 0 ? "–" : String.format(Locale.ROOT, "%,.0f", bytes / 1e6);
  }
}
