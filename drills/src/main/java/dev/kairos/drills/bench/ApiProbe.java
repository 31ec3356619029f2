package dev.kairos.drills.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kairos.drills.StartRecorder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The admin API at a level, as an operator's console uses it, through the bench's front node (a
 * follower): each call below up to {@code --api-requests} times, one after the other, within {@code
 * --api-budget-s}; then the streamed export of every job ({@link ExportProbe}).
 *
 * <p>The job list pages by cursor (docs/api.md "Listing jobs"), so its calls are: the first page;
 * pages from the middle of the list, each request following the previous answer's {@code
 * nextCursor}; the filters an index answers ({@code app}, {@code idPrefix}) and those that test
 * each job within the node's scan budget ({@code handler}, {@code q}), once where every job matches
 * and once where none does (a request then walks its whole budget: the dearest page there is); and
 * a job's page as the console's shows it (the job, its next fires, its recent triggers).
 */
final class ApiProbe {

  /** Items every list call asks for: the API's default page size. */
  static final int PAGE_SIZE = 50;

  /** The id-prefix filter: 100 jobs ({@code scale-0001200} … {@code scale-0001299}). */
  static final String ID_PREFIX = "scale-00012";

  /** The owner search: one team of {@link ScaleMix#OWNERS}, 2 % of the jobs. */
  static final String OWNER = "team-07";

  /** A handler no job runs. */
  static final String NO_HANDLER = "noSuchHandler";

  /**
   * Requests each call sends first and does not count: the first of a kind runs code paths the node
   * has not compiled yet (the smoke run's first list page took 218 ms, the next ones 20).
   */
  static final int WARM_UP_REQUESTS = 1;

  /** Latency of one call over its requests, in ms; {@code bytes} of the last answer. */
  record Call(
      String name,
      String path,
      int requests,
      int errors,
      double p50,
      double p99,
      double max,
      long bytes) {}

  /**
   * Every call of a level and the export; {@code listTotal} is the first page's {@code total} (-1
   * when absent): the jobs the list's index counts, which should be the jobs stored.
   */
  record Result(List<Call> calls, ExportProbe.Export export, long listTotal) {}

  private final BenchCluster cluster;
  private final ScaleBenchOptions options;

  ApiProbe(BenchCluster cluster, ScaleBenchOptions options) {
    this.cluster = cluster;
    this.options = options;
  }

  Result run(long jobs, String label) throws InterruptedException {
    String list = "/api/v1/jobs?size=" + PAGE_SIZE;
    long[] total = {-1};
    List<Call> calls = new ArrayList<>();
    calls.add(
        measure(
            "list, first page",
            list,
            i -> List.of(list),
            json -> total[0] = json.path("total").asLong(-1)));
    calls.add(middlePages(jobs));
    calls.add(measure("filter app (index)", list + "&app=" + cluster.app()));
    calls.add(measure("filter idPrefix (index)", list + "&idPrefix=" + ID_PREFIX));
    calls.add(measure("filter handler, all match", list + "&handler=" + StartRecorder.HANDLER));
    calls.add(measure("filter handler, none match", list + "&handler=" + NO_HANDLER));
    calls.add(measure("search owner (q)", list + "&q=" + OWNER));
    calls.add(jobPage(jobs));
    calls.forEach(c -> BenchOut.say("%s: API %s", label, line(c)));
    if (total[0] != jobs) {
      BenchOut.say("%s: the list's total is %,d, not the %,d jobs stored", label, total[0], jobs);
    }
    ExportProbe.Export export = ExportProbe.run(cluster, jobs, label);
    return new Result(calls, export, total[0]);
  }

  /**
   * Pages from the middle of the list on, each request with the previous answer's cursor. The first
   * cursor is the {@code nextCursor} of a one-job page of the 100 ids from the middle one on (an
   * {@code idPrefix} range): a cursor the API gave, naming the middle job, which the walk continues
   * after (the cursor names the last job seen, not the filter).
   */
  private Call middlePages(long jobs) {
    String prefix = middlePrefix(jobs);
    String base = "/api/v1/jobs?size=" + PAGE_SIZE + "&cursor=";
    String[] cursor = {null};
    JobApi.Fetched first = cluster.api().get("/api/v1/jobs?size=1&idPrefix=" + prefix);
    if (first.json() == null || !first.json().hasNonNull("nextCursor")) {
      BenchOut.say("no cursor from the middle of the list (%d): %s", first.status(), first.json());
      return new Call("list, cursor pages from the middle", base + "…", 0, 1, 0, 0, 0, 0);
    }
    cursor[0] = first.json().path("nextCursor").asText();
    return measure(
        "list, cursor pages from the middle",
        base + "…",
        i -> List.of(base + URLEncoder.encode(cursor[0], StandardCharsets.UTF_8)),
        json -> {
          if (json.hasNonNull("nextCursor")) {
            cursor[0] = json.path("nextCursor").asText();
          }
        });
  }

  /**
   * The id prefix of the 100 jobs from the middle one on: the middle index rounded down to a whole
   * hundred (ids are {@code scale-} and seven digits), without its last two digits.
   */
  static String middlePrefix(long jobs) {
    String middle = ScaleMix.id(jobs / 2 / 100 * 100);
    return middle.substring(0, middle.length() - 2);
  }

  /** A job's page as the console shows it: the job, its next five fires, its last 20 triggers. */
  private Call jobPage(long jobs) {
    SplittableRandom random = new SplittableRandom(jobs);
    return measure(
        "a job's page (job, next fires, triggers)",
        "/api/v1/jobs/{id}, …/next-fires?count=5, …/triggers?size=20",
        i -> {
          String job = "/api/v1/jobs/" + ScaleMix.id(random.nextLong(jobs));
          return List.of(job, job + "/next-fires?count=5", job + "/triggers?size=20");
        },
        json -> {});
  }

  private Call measure(String name, String path) {
    return measure(name, path, i -> List.of(path), json -> {});
  }

  /**
   * Sends the GETs of {@code request(i)}, one after the other, for i = 0, 1, … until {@code
   * --api-requests} answered or the budget is spent (at least one request), after {@link
   * #WARM_UP_REQUESTS} uncounted ones (negative i); a request's time is that of its GETs together.
   * {@code each} sees the JSON of each request's first GET when it answered 200.
   */
  private Call measure(
      String name, String path, IntFunction<List<String>> request, Consumer<JsonNode> each) {
    JobApi api = cluster.api();
    List<Long> micros = new ArrayList<>();
    int errors = 0;
    long bytes = 0;
    long budgetEnd = System.nanoTime() + options.apiBudgetSeconds() * 1_000_000_000L;
    for (int i = -WARM_UP_REQUESTS; i < options.apiRequests(); i++) {
      if (i > 0 && System.nanoTime() > budgetEnd) {
        break;
      }
      double millis = 0;
      long requestBytes = 0;
      JsonNode firstJson = null;
      boolean failed = false;
      for (String get : request.apply(i)) {
        JobApi.Fetched f;
        try {
          f = api.get(get);
        } catch (RuntimeException e) {
          BenchOut.say("API %s failed: %s", name, e);
          failed = true;
          break;
        }
        failed |= f.status() != 200;
        millis += f.millis();
        requestBytes += f.bytes();
        if (firstJson == null) {
          firstJson = f.json(); // not null when every GET answered 200
        }
      }
      if (failed) {
        errors += i >= 0 ? 1 : 0;
        continue;
      }
      if (i >= 0) {
        micros.add(Math.round(millis * 1000));
        bytes = requestBytes;
      }
      each.accept(firstJson);
    }
    Dist d = Dist.of(micros);
    return new Call(
        name, path, micros.size(), errors, d.p50() / 1e3, d.p99() / 1e3, d.max() / 1e3, bytes);
  }

  static String line(Call c) {
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
