package dev.kairos.node.api.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.JobIndex;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job list at a size where reading every job shows: 50,000 jobs in 64 shards, written through
 * {@link JobStore} (pipelined, not through HTTP), listed through {@link JobCatalog} against a real
 * Redis. Redis's own command counters ({@code INFO commandstats}) around one request prove what it
 * read: a page reads its own jobs and a few ids per shard, a filter no index answers tests at most
 * its budget of jobs, an export reads a chunk before it writes, whatever the number of jobs. No
 * assertion here is about time (that belongs in a benchmark); they are about what is read. The jobs
 * live in database 9 of the shared server, so no other class's keys are in the lists; the counters
 * are the server's, and nothing else runs while a class of this module runs.
 */
@RealInfra(redis = RedisMode.STANDALONE)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JobListAtScaleIT {

  private static final Logger log = LoggerFactory.getLogger(JobListAtScaleIT.class);
  private static final int JOBS = 50_000;
  private static final int SHARDS = 64;
  private static final int APPS = 10;
  private static final int BUDGET = 10_000;
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final EmbeddedRedis server;
  private final RedisKeys keys = new RedisKeys(SHARDS);
  private KairosRedis redis;
  private JobStore store;
  private JobCatalog catalog;

  /** Every id, sorted: what a complete walk must see. */
  private List<String> ids;

  JobListAtScaleIT(EmbeddedRedis server) {
    this.server = server;
  }

  private static String id(int i) {
    return String.format("job-%05d", i);
  }

  private static String app(int i) {
    return "app-" + (i % APPS);
  }

  /** One job in 7 runs handler "rare", the others "common". */
  private static String handler(int i) {
    return i % 7 == 0 ? "rare" : "common";
  }

  private static JobDefinition job(int i) {
    return JobDefinition.builder(id(i))
        .app(app(i))
        .handler(handler(i))
        .fixedRate(3_600_000)
        .enabled(i % 4 != 0)
        .owner("team-" + (i % 100))
        .build();
  }

  @BeforeAll
  void storeFiftyThousandJobs() {
    redis = KairosRedis.connect(List.of(server.uri() + "/9"), false, TIMEOUT);
    redis.sync().flushdb();
    store = new JobStore(redis, keys, new SettableClock(1_750_000_000_000L), 1_000);
    List<Integer> order = new ArrayList<>(IntStream.range(0, JOBS).boxed().toList());
    Collections.shuffle(order, new Random(33));
    for (int from = 0; from < JOBS; from += 1_000) {
      List<CompletableFuture<JobDefinition>> writes = new ArrayList<>();
      for (int i : order.subList(from, from + 1_000)) {
        writes.add(store.createAsync(job(i)));
      }
      writes.forEach(CompletableFuture::join);
    }
    ids = IntStream.range(0, JOBS).mapToObj(JobListAtScaleIT::id).sorted().toList();
    catalog = new JobCatalog(new JobIndex(redis, keys, TIMEOUT), redis, TIMEOUT);
  }

  @AfterAll
  void close() {
    if (redis != null) {
      redis.sync().flushdb();
      redis.close();
    }
  }

  /** Calls per command since the server started, from {@code INFO commandstats}. */
  private Map<String, Long> commandCalls() {
    Map<String, Long> calls = new HashMap<>();
    for (String line : redis.sync().info("commandstats").split("\r?\n")) {
      if (line.startsWith("cmdstat_")) {
        String name = line.substring("cmdstat_".length(), line.indexOf(':'));
        String stats = line.substring(line.indexOf(':') + 1);
        for (String part : stats.split(",")) {
          if (part.startsWith("calls=")) {
            calls.put(name, Long.parseLong(part.substring("calls=".length())));
          }
        }
      }
    }
    return calls;
  }

  /** Redis commands one call of {@code action} sent, by name (INFO itself left out). */
  private Map<String, Long> commandsOf(Runnable action) {
    Map<String, Long> before = commandCalls();
    action.run();
    Map<String, Long> after = commandCalls();
    Map<String, Long> sent = new HashMap<>();
    after.forEach(
        (name, n) -> {
          long delta = n - before.getOrDefault(name, 0L);
          if (delta > 0 && !name.equals("info")) {
            sent.put(name, delta);
          }
        });
    return sent;
  }

  private static long jobReads(Map<String, Long> sent) {
    return sent.getOrDefault("hgetall", 0L) + sent.getOrDefault("hmget", 0L);
  }

  private List<String> idsOf(JobCatalog.Listing listing) {
    return listing.jobs().stream().map(JobDefinition::id).toList();
  }

  @Test
  void aPageReadsItsOwnJobsAndAFewIdsPerShardNotEveryJob() {
    AtomicReference<JobCatalog.Listing> first = new AtomicReference<>();
    Map<String, Long> sent =
        commandsOf(() -> first.set(catalog.page(JobCatalog.Filter.ALL, null, 0, 50, BUDGET)));

    assertThat(idsOf(first.get())).containsExactlyElementsOf(ids.subList(0, 50));
    assertThat(first.get().total()).isEqualTo(JOBS);
    assertThat(first.get().after()).isEqualTo(ids.get(49));
    assertThat(jobReads(sent)).as("jobs read: %s", sent).isLessThanOrEqualTo(50 + SHARDS);
    assertThat(sent.getOrDefault("zrangebylex", 0L))
        .as("index reads: a round or two over the shards")
        .isLessThanOrEqualTo(3L * SHARDS);

    // A page from the middle, by cursor, costs the same.
    AtomicReference<JobCatalog.Listing> middle = new AtomicReference<>();
    Map<String, Long> sentMiddle =
        commandsOf(
            () -> middle.set(catalog.page(JobCatalog.Filter.ALL, ids.get(24_999), 0, 50, BUDGET)));
    assertThat(idsOf(middle.get())).containsExactlyElementsOf(ids.subList(25_000, 25_050));
    assertThat(jobReads(sentMiddle)).isLessThanOrEqualTo(50 + SHARDS);
    assertThat(middle.get().after()).isEqualTo(ids.get(25_049));

    // Sizing, not a test: what the two indexes take in Redis (docs/operations.md's figure).
    log.info("the job indexes take {} bytes per job", indexBytes() / JOBS);
  }

  @Test
  void cursorPagingWalksEveryJobExactlyOnceInOrder() {
    List<String> seen = new ArrayList<>();
    String after = null;
    int pages = 0;
    do {
      JobCatalog.Listing page = catalog.page(JobCatalog.Filter.ALL, after, 0, 500, BUDGET);
      seen.addAll(idsOf(page));
      assertThat(page.total()).isEqualTo(JOBS);
      after = page.after();
      pages++;
    } while (after != null);

    assertThat(pages).isEqualTo(JOBS / 500);
    assertThat(seen).containsExactlyElementsOf(ids);
  }

  @Test
  void aCursorStaysValidWhileJobsAreCreatedAndDeletedBetweenPages() {
    JobCatalog.Listing first = catalog.page(JobCatalog.Filter.ALL, null, 0, 50, BUDGET);
    String cursor = first.after();
    assertThat(cursor).isEqualTo(id(49));
    // Between the two pages: the cursor's own job and one of the next page are deleted, a job is
    // created right after the cursor and one before it.
    JobDefinition after =
        JobDefinition.builder(id(49) + "-new")
            .app("app-0")
            .handler("common")
            .fixedRate(3_600_000)
            .build();
    JobDefinition before =
        JobDefinition.builder(id(10) + "-new")
            .app("app-0")
            .handler("common")
            .fixedRate(3_600_000)
            .build();
    try {
      store.create(after);
      store.create(before);
      store.delete(id(49));
      store.delete(id(51));

      JobCatalog.Listing next = catalog.page(JobCatalog.Filter.ALL, cursor, 0, 50, BUDGET);

      List<String> expected = new ArrayList<>();
      expected.add(after.id());
      expected.add(id(50));
      IntStream.range(52, 100).mapToObj(JobListAtScaleIT::id).forEach(expected::add);
      assertThat(idsOf(next)).containsExactlyElementsOf(expected);
      assertThat(next.after()).isEqualTo(id(99));
      assertThat(next.total()).isEqualTo(JOBS);
    } finally {
      for (String id : List.of(after.id(), before.id())) {
        if (store.get(id).isPresent()) {
          store.delete(id);
        }
      }
      for (int i : List.of(49, 51)) {
        if (store.get(id(i)).isEmpty()) {
          store.create(job(i));
        }
      }
    }
  }

  @Test
  void anAppsPagesComeFromItsOwnIndexRange() {
    JobCatalog.Filter app3 = new JobCatalog.Filter("app-3", null, null, null, null);
    AtomicReference<JobCatalog.Listing> first = new AtomicReference<>();
    Map<String, Long> sent = commandsOf(() -> first.set(catalog.page(app3, null, 0, 50, BUDGET)));

    List<String> expected = ids.stream().filter(id -> id.endsWith("3")).toList();
    assertThat(first.get().total()).isEqualTo(JOBS / APPS);
    assertThat(idsOf(first.get())).containsExactlyElementsOf(expected.subList(0, 50));
    assertThat(jobReads(sent)).as("jobs read: %s", sent).isLessThanOrEqualTo(50 + SHARDS);

    List<String> seen = new ArrayList<>();
    String after = null;
    do {
      JobCatalog.Listing page = catalog.page(app3, after, 0, 500, BUDGET);
      seen.addAll(idsOf(page));
      after = page.after();
    } while (after != null);
    assertThat(seen).containsExactlyElementsOf(expected);
  }

  @Test
  void anIdPrefixIsOneLexRangeWithAnExactTotal() {
    JobCatalog.Filter prefix = new JobCatalog.Filter(null, null, null, null, "job-123");
    AtomicReference<JobCatalog.Listing> first = new AtomicReference<>();
    Map<String, Long> sent = commandsOf(() -> first.set(catalog.page(prefix, null, 0, 50, BUDGET)));

    assertThat(first.get().total()).isEqualTo(100);
    assertThat(idsOf(first.get())).containsExactlyElementsOf(ids.subList(12_300, 12_350));
    assertThat(jobReads(sent)).isLessThanOrEqualTo(50 + SHARDS);
  }

  @Test
  void aFilterNoIndexAnswersTestsAtMostItsBudgetPerRequestAndResumesByCursor() {
    JobCatalog.Filter rare = new JobCatalog.Filter(null, "rare", null, null, null);
    int budget = 2_000;
    List<String> expected =
        IntStream.range(0, JOBS)
            .filter(i -> i % 7 == 0)
            .mapToObj(JobListAtScaleIT::id)
            .sorted()
            .toList();

    List<String> seen = new ArrayList<>();
    String after = null;
    int requests = 0;
    do {
      String from = after;
      AtomicReference<JobCatalog.Listing> page = new AtomicReference<>();
      Map<String, Long> sent = commandsOf(() -> page.set(catalog.page(rare, from, 0, 50, budget)));
      assertThat(sent.getOrDefault("hmget", 0L)).as("jobs tested").isLessThanOrEqualTo(budget);
      assertThat(sent.getOrDefault("hgetall", 0L)).as("jobs read whole").isLessThanOrEqualTo(50);
      assertThat(page.get().total()).as("not known without a whole scan").isNull();
      seen.addAll(idsOf(page.get()));
      after = page.get().after();
      requests++;
    } while (after != null);

    assertThat(seen).containsExactlyElementsOf(expected);
    assertThat(requests).isGreaterThanOrEqualTo(expected.size() / 50);
  }

  @Test
  void aSearchThatMatchesOneJobWalksInBudgetedStepsAndFindsIt() {
    JobCatalog.Filter one = new JobCatalog.Filter(null, null, null, "JOB-42424", null);
    List<String> seen = new ArrayList<>();
    String after = null;
    int requests = 0;
    do {
      JobCatalog.Listing page = catalog.page(one, after, 0, 50, BUDGET);
      assertThat(page.examined()).isLessThanOrEqualTo(BUDGET);
      seen.addAll(idsOf(page));
      after = page.after();
      requests++;
    } while (after != null);

    assertThat(seen).containsExactly("job-42424");
    // The last request may end exactly at the last id without knowing it: then one more says so.
    assertThat(requests).isBetween(JOBS / BUDGET, JOBS / BUDGET + 1);

    // Offset paging cannot skip further than one budget of tested jobs.
    assertThat(catalog.page(one, null, 1, 50, BUDGET).offsetReached()).isFalse();
  }

  @Test
  void enabledAloneHasAnExactTotalFromTheCounters() {
    JobCatalog.Filter disabled = new JobCatalog.Filter("app-2", null, false, null, null);
    JobCatalog.Listing page = catalog.page(disabled, null, 0, 50, BUDGET);

    long expected = IntStream.range(0, JOBS).filter(i -> i % APPS == 2 && i % 4 == 0).count();
    assertThat(page.total()).isEqualTo(expected);
    assertThat(page.jobs()).hasSize(50).allMatch(j -> !j.enabled() && j.app().equals("app-2"));
  }

  @Test
  void jobsPerAppAreCountedWithoutReadingAJob() {
    AtomicReference<Map<String, Long>> counts = new AtomicReference<>();
    Map<String, Long> sent = commandsOf(() -> counts.set(catalog.countPerApp()));

    Map<String, Long> expected = new HashMap<>();
    IntStream.range(0, APPS).forEach(a -> expected.put("app-" + a, (long) (JOBS / APPS)));
    assertThat(counts.get()).isEqualTo(expected);
    assertThat(jobReads(sent)).isZero();
    assertThat(catalog.countOfApp("app-7")).isEqualTo(JOBS / APPS);
  }

  @Test
  void theExportReadsAChunkBeforeItHandsOutAJobAndHandsOutEveryJobInOrder() {
    Map<String, Long> before = commandCalls();
    List<String> exported = new ArrayList<>();
    AtomicReference<Long> readBeforeFirst = new AtomicReference<>();
    long count =
        catalog.export(
            JobCatalog.Filter.ALL,
            job -> {
              if (exported.isEmpty()) {
                Map<String, Long> now = commandCalls();
                readBeforeFirst.set(now.get("hgetall") - before.getOrDefault("hgetall", 0L));
              }
              exported.add(job.id());
            });

    assertThat(count).isEqualTo(JOBS);
    assertThat(exported).containsExactlyElementsOf(ids);
    assertThat(readBeforeFirst.get())
        .as("jobs read before the first was handed out: one chunk, not the export")
        .isLessThanOrEqualTo(JobCatalog.CHUNK);
  }

  /** What the two indexes take in Redis (logged, for docs/operations.md's sizing). */
  private long indexBytes() {
    long bytes = 0;
    for (int s = 0; s < SHARDS; s++) {
      Long all = redis.sync().memoryUsage(RedisKeys.jobIds(s));
      Long perApp = redis.sync().memoryUsage(RedisKeys.appJobIds(s));
      bytes += (all == null ? 0 : all) + (perApp == null ? 0 : perApp);
    }
    return bytes;
  }
}
