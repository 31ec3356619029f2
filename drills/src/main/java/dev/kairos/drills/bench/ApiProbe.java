package dev.kairos.drills.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kairos.drills.DrillNode;
import dev.kairos.drills.StartRecorder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The admin API at a level, as an operator's console uses it, through the bench's front node (a
 * follower): each call below up to {@code --api-requests} times, one after the other, within
 * {@code --api-budget-s}; then one export of every job, its time, bytes and the node's heap
 * ({@code jvm_memory_used_bytes{area="heap"}} read every 250 ms meanwhile: before, peak, after).
 *
 * <p>The job list pages by cursor when the first page's answer carries a {@code nextCursor}: the
 * "next page" call then follows the cursor from page to page. Otherwise it pages by number, and the
 * call reads a page half-way through the list ({@code page=N/100}). A build whose lists read every
 * job per call (no cursor) is not asked for lists, searches or the export above {@code
 * --api-full-scan-max} jobs: each would hold every job in the node's heap at once.
 */
final class ApiProbe {

  /** Pages every list call asks for. */
  static final int PAGE_SIZE = 50;

  /** The id-prefix search: 100 jobs ({@code scale-0001200} … {@code scale-0001299}). */
  static final String ID_PREFIX = "scale-00012";

  /** The owner search: one team of {@link ScaleMix#OWNERS}. */
  static final String OWNER = "team-07";

  private static final Duration EXPORT_TIMEOUT = Duration.ofMinutes(10);
  private static final long HEAP_EVERY_MS = 250;

  /** Latency of one call over its requests, in ms. */
  record Call(String name, String path, int requests, int errors, double p50, double p99, double max, long bytes) {

    static Call skipped(String name, String path) {
      return new Call(name, path, 0, 0, Double.NaN, Double.NaN, Double.NaN, 0);
    }

    boolean wasSkipped() {
      return requests == 0;
    }
  }

  /** The export: status, wall time, bytes and the node's heap before, at its peak and after. */
  record Export(int status, double seconds, long bytes, long heapBefore, long heapPeak, long heapAfter) {
    static final Export SKIPPED = new Export(0, Double.NaN, 0, -1, -1, -1);
  }

  /** Every call of a level, the export, and how the list paged. */
  record Result(List<Call> calls, Export export, String paging) {}

  private final BenchCluster cluster;
  private final ScaleBenchOptions options;

  /** Null until a list answered: whether the build pages by cursor. */
  private Boolean cursorPaging;

  ApiProbe(BenchCluster cluster, ScaleBenchOptions options) {
    this.cluster = cluster;
    this.options = options;
  }

  Result run(long jobs, String label) throws InterruptedException {
    JobApi api = cluster.api();
    boolean lists =
        Boolean.TRUE.equals(cursorPaging)
            || options.apiFullScanMax() == 0
            || jobs <= options.apiFullScanMax();
    List<Call> calls = new ArrayList<>();
    String first = "/api/v1/jobs?size=" + PAGE_SIZE;
    JsonNode page = null;
    if (lists) {
      try {
        page = api.get(first).json();
      } catch (RuntimeException e) {
        BenchOut.say("%s: API first page failed: %s", label, e);
      }
    }
    if (page != null) {
      cursorPaging = page.hasNonNull("nextCursor");
      calls.add(measure("list, first page", first, i -> first));
      calls.add(deepPage(api, jobs, page));
      calls.add(filter("list by app", "app=" + cluster.app()));
      calls.add(filter("list by handler", "handler=" + StartRecorder.HANDLER));
      calls.add(filter("search id prefix", "q=" + ID_PREFIX));
      calls.add(filter("search owner", "q=" + OWNER));
    } else {
      if (!lists) {
        BenchOut.say(
            "%s: the job list pages without a cursor (reads every job per call): lists, searches"
                + " and the export are skipped above %,d jobs (--api-full-scan-max)",
            label, options.apiFullScanMax());
      }
      lists = false;
      calls.add(Call.skipped("list, first page", first));
      calls.add(Call.skipped("list, next/deep page", first + "&page=…"));
      calls.add(Call.skipped("list by app", first + "&app=…"));
      calls.add(Call.skipped("list by handler", first + "&handler=…"));
      calls.add(Call.skipped("search id prefix", first + "&q=" + ID_PREFIX));
      calls.add(Call.skipped("search owner", first + "&q=" + OWNER));
    }
    SplittableRandom random = new SplittableRandom(jobs);
    calls.add(
        measure(
            "job by id", "/api/v1/jobs/{id}", i -> "/api/v1/jobs/" + ScaleMix.id(random.nextLong(jobs))));
    calls.forEach(c -> BenchOut.say("%s: API %s", label, line(c)));
    Export export = lists ? export(cluster.front()) : Export.SKIPPED;
    if (lists) {
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
    }
    String paging =
        cursorPaging == null ? "not asked" : cursorPaging ? "cursor (nextCursor)" : "page number";
    return new Result(calls, export, paging);
  }

  private Call deepPage(JobApi api, long jobs, JsonNode firstPage) {
    if (Boolean.TRUE.equals(cursorPaging)) {
      String base = "/api/v1/jobs?size=" + PAGE_SIZE + "&cursor=";
      String[] cursor = {firstPage.path("nextCursor").asText()};
      return measure(
          "list, next page (cursor)",
          base + "…",
          i -> base + URLEncoder.encode(cursor[0], StandardCharsets.UTF_8),
          json -> {
            if (json != null && json.hasNonNull("nextCursor")) {
              cursor[0] = json.path("nextCursor").asText();
            }
          });
    }
    long page = jobs / PAGE_SIZE / 2;
    String path = "/api/v1/jobs?size=" + PAGE_SIZE + "&page=" + page;
    return measure("list, deep page", path, i -> path);
  }

  private Call filter(String name, String query) {
    String path = "/api/v1/jobs?size=" + PAGE_SIZE + "&" + query;
    return measure(name, path, i -> path);
  }

  private Call measure(String name, String shown, IntFunction<String> path) {
    return measure(name, shown, path, json -> {});
  }

  /**
   * Sends {@code path(i)} for i = 0, 1, … until {@code --api-requests} answered or the budget is
   * spent (at least one request); {@code each} sees every answer's JSON.
   */
  private Call measure(
      String name,
      String shown,
      IntFunction<String> path,
      Consumer<JsonNode> each) {
    JobApi api = cluster.api();
    List<Long> micros = new ArrayList<>();
    int errors = 0;
    long bytes = 0;
    long budgetEnd = System.nanoTime() + options.apiBudgetSeconds() * 1_000_000_000L;
    for (int i = 0; i < options.apiRequests(); i++) {
      if (i > 0 && System.nanoTime() > budgetEnd) {
        break;
      }
      JobApi.Fetched f;
      try {
        f = api.get(path.apply(i));
      } catch (RuntimeException e) {
        errors++;
        BenchOut.say("API %s failed: %s", name, e);
        continue;
      }
      if (f.status() != 200) {
        errors++;
      }
      micros.add(Math.round(f.millis() * 1000));
      bytes = f.bytes();
      each.accept(f.json());
    }
    Dist d = Dist.of(micros);
    return new Call(
        name, shown, micros.size(), errors, d.p50() / 1e3, d.p99() / 1e3, d.max() / 1e3, bytes);
  }

  private Export export(DrillNode node) throws InterruptedException {
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
                  return;
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
      BenchOut.say("API export failed: %s", e);
      f = new JobApi.Fetched(-1, 0, Double.NaN, null);
    } finally {
      sampler.interrupt();
      sampler.join(5_000);
    }
    long after = heap(node);
    peak.accumulateAndGet(after, Math::max);
    return new Export(f.status(), f.millis() / 1e3, f.bytes(), before, peak.get(), after);
  }

  /** The node's heap in use now (bytes), or -1 when it does not answer. */
  private static long heap(DrillNode node) {
    try {
      return (long) node.probe().metric("jvm_memory_used_bytes", Map.of("area", "heap"));
    } catch (RuntimeException e) {
      return -1;
    }
  }

  static String mb(long bytes) {
    return bytes < 0 ? "–" : String.format(Locale.ROOT, "%,.0f", bytes / 1e6);
  }

  static String line(Call c) {
    if (c.wasSkipped()) {
      return c.name() + ": skipped";
    }
    return String.format(
        Locale.ROOT,
        "%s (%s): %d requests, %d errors, p50 %.1f ms, p99 %.1f ms, max %.1f ms, %,d B",
        c.name(),
        c.path(),
        c.requests(),
        c.errors(),
        c.p50(),
        c.p99(),
        c.max(),
        c.bytes());
  }
}
