package dev.kairos.node.api.job;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.JobHash;
import dev.kairos.core.redis.JobFields;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.IndexRange;
import dev.kairos.core.store.JobIndex;
import dev.kairos.core.store.MergedIdWalker;
import dev.kairos.security.AppScope;
import io.lettuce.core.KeyValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Read side of jobs for the API: pages of jobs in id order from the shards' job indexes, never a
 * read of every job. A page of an index range (every job, one app's, ids with a prefix) is a merge
 * of a few ids per shard after the cursor ({@link JobIndex#walk}) and one pipelined round of {@code
 * HGETALL} (and {@code ZSCORE} for the next fire) for the page's jobs, with an exact {@code total}
 * from {@code ZCARD}/{@code ZLEXCOUNT}. Filters no index answers (handler, enabled, text) walk the
 * range in id order in rounds of up to {@value #CHUNK} ids (the first about twice a page, each next
 * one twice the last), with one pipelined {@code HMGET} of the four fields they test, until the
 * page is full or the request's scan budget of examined jobs is spent; the answer then carries
 * where to continue.
 *
 * <p>Thread-safe.
 */
public final class JobCatalog {

  /** Ids examined per round of a filtered scan, and jobs read per round of an export. */
  static final int CHUNK = 500;

  /** Fewest ids tested in the first round of a filtered scan. */
  private static final int FIRST_STEP = 64;

  private final JobIndex index;
  private final KairosRedis redis;
  private final Duration timeout;

  public JobCatalog(JobIndex index, KairosRedis redis, Duration timeout) {
    this.index = index;
    this.redis = redis;
    this.timeout = timeout;
  }

  /**
   * A filter over jobs; null parts match everything. {@code app} and {@code idPrefix} are answered
   * by the index; {@code handler}, {@code enabled}, {@code text} (a case-insensitive substring of
   * id, app, handler or owner) and a caller's {@code scope} of several apps are tested on each job.
   */
  public record Filter(
      String app, String handler, Boolean enabled, String text, String idPrefix, AppScope scope)
      implements Predicate<JobDefinition> {

    public static final Filter ALL = new Filter(null, null, null, null, null);

    /** What an app name and an id prefix may hold (the characters of ids and app names). */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    /**
     * Whether {@code idPrefix} is one a list accepts: absent, or 1-64 of the characters an id has
     * (the index range it stands for is computed from its last character).
     */
    public static boolean acceptsIdPrefix(String idPrefix) {
      return idPrefix == null || idPrefix.isEmpty() || NAME.matcher(idPrefix).matches();
    }

    public Filter {
      app = blankToNull(app);
      handler = blankToNull(handler);
      text = blankToNull(text);
      idPrefix = blankToNull(idPrefix);
      scope = scope == null ? AppScope.all() : scope;
    }

    /** A filter over every app. */
    public Filter(String app, String handler, Boolean enabled, String text, String idPrefix) {
      this(app, handler, enabled, text, idPrefix, AppScope.all());
    }

    /**
     * This filter, limited to the caller's apps. A scope of one app becomes that app's index range;
     * a scope of several is tested on each job, unless the filter names one of them.
     */
    public Filter within(AppScope callerScope) {
      if (callerScope.isAll()) {
        return this;
      }
      if (app == null && callerScope.apps().size() == 1) {
        return new Filter(
            callerScope.apps().iterator().next(), handler, enabled, text, idPrefix, callerScope);
      }
      return new Filter(app, handler, enabled, text, idPrefix, callerScope);
    }

    /**
     * True when no job can match: an app that is no valid app name (1-64 of {@code
     * [A-Za-z0-9_.-]}).
     */
    public boolean matchesNothing() {
      return app != null && (!NAME.matcher(app).matches() || !scope.allows(app));
    }

    /** The index range holding every job this filter can match; not for {@link #matchesNothing}. */
    public IndexRange range() {
      return new IndexRange(app, idPrefix);
    }

    /** True when the index range alone answers the filter: no job needs testing. */
    public boolean indexed() {
      return handler == null && enabled == null && text == null && (app != null || scope.isAll());
    }

    @Override
    public boolean test(JobDefinition job) {
      return matches(job.id(), job.app(), job.handler(), job.enabled(), job.owner());
    }

    boolean matches(String id, String jobApp, String jobHandler, boolean jobEnabled, String owner) {
      if (app != null && !app.equals(jobApp)) {
        return false;
      }
      if (!scope.allows(jobApp)) {
        return false;
      }
      if (idPrefix != null && !id.startsWith(idPrefix)) {
        return false;
      }
      if (handler != null && !handler.equals(jobHandler)) {
        return false;
      }
      if (enabled != null && enabled != jobEnabled) {
        return false;
      }
      if (text != null) {
        String needle = text.toLowerCase(Locale.ROOT);
        return contains(id, needle)
            || contains(jobApp, needle)
            || contains(jobHandler, needle)
            || contains(owner, needle);
      }
      return true;
    }

    private static boolean contains(String value, String needle) {
      return value != null && value.toLowerCase(Locale.ROOT).contains(needle);
    }

    private static String blankToNull(String value) {
      return value == null || value.isBlank() ? null : value;
    }
  }

  /**
   * One page.
   *
   * @param jobs the page, in id order
   * @param nextFires each job's next fire (absent when it has none)
   * @param after the id to continue after for the next page; {@code null} on the last page
   * @param total the jobs matching over all pages, when known exactly; {@code null} otherwise
   * @param examined jobs tested against the filter (0 for an index range)
   * @param offsetReached false when a scan spent its budget before the offset's matches were
   *     skipped (the page is then empty)
   */
  public record Listing(
      List<JobDefinition> jobs,
      Map<String, Long> nextFires,
      String after,
      Long total,
      long examined,
      boolean offsetReached) {}

  /**
   * The page of {@code size} jobs matching {@code filter} after job {@code afterId} ({@code null}:
   * from the first), past {@code offset} more matches (offset paging, O(offset)).
   *
   * @param budget most jobs a filtered scan tests in this call
   */
  public Listing page(Filter filter, String afterId, long offset, int size, int budget) {
    if (filter.matchesNothing()) {
      return new Listing(List.of(), Map.of(), null, 0L, 0, true);
    }
    MergedIdWalker walker = index.walk(filter.range(), afterId);
    if (filter.indexed()) {
      long total = index.count(filter.range());
      if (offset > 0 && !walker.skip(offset)) {
        return new Listing(List.of(), Map.of(), null, total, 0, true);
      }
      List<String> ids = walker.next(size + 1);
      boolean more = ids.size() > size;
      List<String> page = more ? ids.subList(0, size) : ids;
      return listing(filter, page, more ? page.get(size - 1) : null, total, 0, true);
    }
    return scan(filter, walker, afterId == null && offset == 0, offset, size, budget);
  }

  private Listing scan(
      Filter filter, MergedIdWalker walker, boolean fromStart, long offset, int size, int budget) {
    List<String> matches = new ArrayList<>();
    long toSkip = offset;
    long examined = 0;
    String lastExamined = walker.last();
    boolean ended = false;
    // A first round about what a page of a common filter needs, then larger ones for a rare one.
    int step = Math.min(Math.max(2 * (size + 1), FIRST_STEP), CHUNK);
    scan:
    while (examined < budget) {
      int chunk = (int) Math.min(step, budget - examined);
      step = Math.min(2 * step, CHUNK);
      List<String> ids = walker.next(chunk);
      List<List<KeyValue<String, String>>> fields = filterFields(ids);
      for (int i = 0; i < ids.size(); i++) {
        examined++;
        lastExamined = ids.get(i);
        if (!matches(filter, ids.get(i), fields.get(i))) {
          continue;
        }
        if (toSkip > 0) {
          toSkip--;
          continue;
        }
        matches.add(ids.get(i));
        if (matches.size() > size) {
          break scan;
        }
      }
      if (ids.size() < chunk || walker.exhausted()) {
        ended = true;
        break;
      }
    }
    if (matches.size() > size) {
      List<String> page = matches.subList(0, size);
      return listing(filter, page, page.get(size - 1), countedTotal(filter), examined, true);
    }
    if (!ended && toSkip > 0) {
      return new Listing(List.of(), Map.of(), null, countedTotal(filter), examined, false);
    }
    Long total = countedTotal(filter);
    if (total == null && ended && fromStart) {
      total = (long) matches.size(); // the whole range was examined by this one call
    }
    return listing(filter, matches, ended ? null : lastExamined, total, examined, true);
  }

  /** Every job matching {@code filter}, in id order, read {@value #CHUNK} at a time. */
  public long export(Filter filter, Consumer<JobDefinition> sink) {
    if (filter.matchesNothing()) {
      return 0;
    }
    MergedIdWalker walker = index.walk(filter.range(), null);
    long exported = 0;
    while (true) {
      List<String> ids = walker.next(CHUNK);
      List<CompletableFuture<Map<String, String>>> reads = new ArrayList<>(ids.size());
      for (String id : ids) {
        reads.add(redis.async().hgetall(jobKey(id)).toCompletableFuture());
      }
      long deadline = deadline();
      for (CompletableFuture<Map<String, String>> read : reads) {
        Map<String, String> hash = await(read, deadline);
        if (hash != null && !hash.isEmpty()) {
          JobDefinition job = JobHash.fromHash(hash);
          if (filter.test(job)) {
            sink.accept(job);
            exported++;
          }
        }
      }
      if (ids.size() < CHUNK) {
        return exported;
      }
    }
  }

  /** Jobs naming each app, every app some job names, sorted by app (no read of any job). */
  public Map<String, Long> countPerApp() {
    return index.countPerApp();
  }

  /** Jobs naming {@code app}. */
  public long countOfApp(String app) {
    return index.count(IndexRange.ofApp(app));
  }

  /**
   * An exact total for a filter a scan answers, when counters give it: {@code enabled} alone (with
   * an app or not) from the per-shard enabled-job counts per app ({@link RedisKeys#enabledApps})
   * and the index; {@code null} for the others.
   */
  private Long countedTotal(Filter filter) {
    if (filter.enabled() == null
        || (filter.app() == null && !filter.scope().isAll())
        || filter.handler() != null
        || filter.text() != null
        || filter.idPrefix() != null) {
      return null;
    }
    int shards = index.keys().shards();
    List<CompletableFuture<Long>> counts = new ArrayList<>(shards);
    for (int s = 0; s < shards; s++) {
      counts.add(
          filter.app() != null
              ? redis
                  .async()
                  .hget(RedisKeys.enabledApps(s), filter.app())
                  .toCompletableFuture()
                  .thenApply(n -> n == null ? 0L : Long.parseLong(n))
              : redis
                  .async()
                  .hvals(RedisKeys.enabledApps(s))
                  .toCompletableFuture()
                  .thenApply(ns -> ns.stream().mapToLong(Long::parseLong).sum()));
    }
    long enabled = 0;
    long deadline = deadline();
    for (CompletableFuture<Long> count : counts) {
      enabled += await(count, deadline);
    }
    return filter.enabled() ? enabled : Math.max(0, index.count(filter.range()) - enabled);
  }

  /** The four fields a scan tests, for each id, in one pipelined round. */
  private List<List<KeyValue<String, String>>> filterFields(List<String> ids) {
    List<CompletableFuture<List<KeyValue<String, String>>>> reads = new ArrayList<>(ids.size());
    for (String id : ids) {
      reads.add(
          redis
              .async()
              .hmget(
                  jobKey(id), JobFields.APP, JobFields.HANDLER, JobFields.ENABLED, JobFields.OWNER)
              .toCompletableFuture());
    }
    List<List<KeyValue<String, String>>> fields = new ArrayList<>(ids.size());
    long deadline = deadline();
    for (CompletableFuture<List<KeyValue<String, String>>> read : reads) {
      fields.add(await(read, deadline));
    }
    return fields;
  }

  private static boolean matches(Filter filter, String id, List<KeyValue<String, String>> fields) {
    if (fields == null || fields.size() < 4 || !fields.get(0).hasValue()) {
      return false; // deleted since the index was read
    }
    return filter.matches(
        id,
        fields.get(0).getValue(),
        fields.get(1).getValueOrElse(null),
        "true".equals(fields.get(2).getValueOrElse(null)),
        fields.get(3).getValueOrElse(""));
  }

  /** The page's jobs and next fires, read in one pipelined round; gone or changed ones left out. */
  private Listing listing(
      Filter filter, List<String> ids, String after, Long total, long examined, boolean reached) {
    List<CompletableFuture<Map<String, String>>> hashes = new ArrayList<>(ids.size());
    List<CompletableFuture<Double>> scores = new ArrayList<>(ids.size());
    for (String id : ids) {
      hashes.add(redis.async().hgetall(jobKey(id)).toCompletableFuture());
      scores.add(redis.async().zscore(dueKey(id), id).toCompletableFuture());
    }
    List<JobDefinition> jobs = new ArrayList<>(ids.size());
    Map<String, Long> next = new HashMap<>();
    long deadline = deadline();
    for (int i = 0; i < ids.size(); i++) {
      Map<String, String> hash = await(hashes.get(i), deadline);
      Double score = await(scores.get(i), deadline);
      if (hash == null || hash.isEmpty()) {
        continue; // deleted since the index was read
      }
      JobDefinition job = JobHash.fromHash(hash);
      if (!filter.test(job)) {
        continue; // changed since it was tested, or an index entry an upgrade left behind
      }
      jobs.add(job);
      if (score != null && !score.isInfinite()) {
        next.put(job.id(), score.longValue());
      }
    }
    return new Listing(jobs, next, after, total, examined, reached);
  }

  /** The next fire of each job: its due score, absent when it has none or is parked (+inf). */
  public Map<String, Long> nextFires(Collection<String> jobIds) {
    Map<String, CompletableFuture<Double>> reads = new HashMap<>();
    for (String id : jobIds) {
      reads.put(id, redis.async().zscore(dueKey(id), id).toCompletableFuture());
    }
    Map<String, Long> next = new HashMap<>();
    long deadline = deadline();
    for (var read : reads.entrySet()) {
      Double score = await(read.getValue(), deadline);
      if (score != null && !score.isInfinite()) {
        next.put(read.getKey(), score.longValue());
      }
    }
    return next;
  }

  public Long nextFire(String jobId) {
    return nextFires(List.of(jobId)).get(jobId);
  }

  private String jobKey(String id) {
    return RedisKeys.job(index.keys().shardOf(id), id);
  }

  private String dueKey(String id) {
    return RedisKeys.due(index.keys().shardOf(id));
  }

  private long deadline() {
    return System.nanoTime() + timeout.toNanos();
  }

  private <T> T await(CompletableFuture<T> future, long deadline) {
    try {
      return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosException("interrupted reading jobs", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r; // Redis's own: answered as Redis being unavailable
      }
      throw new KairosException("reading jobs failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new io.lettuce.core.RedisCommandTimeoutException(
          "reading jobs took longer than " + timeout);
    }
  }
}
