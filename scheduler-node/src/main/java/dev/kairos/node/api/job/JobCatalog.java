package dev.kairos.node.api.job;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.JobStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Read side of jobs for the API: every job (shard by shard through the store's index, no SCAN)
 * filtered and sorted by id, and next fire times with one pipelined round of ZSCOREs. Listing is
 * O(jobs) per call; the API is an operator tool, not the hot path.
 */
public final class JobCatalog {

  private final JobStore store;
  private final KairosRedis redis;
  private final Duration timeout;

  public JobCatalog(JobStore store, KairosRedis redis, Duration timeout) {
    this.store = store;
    this.redis = redis;
    this.timeout = timeout;
  }

  /** A filter over jobs; null parts match everything. */
  public record Filter(String app, String handler, Boolean enabled, String text)
      implements Predicate<JobDefinition> {

    public static final Filter ALL = new Filter(null, null, null, null);

    @Override
    public boolean test(JobDefinition job) {
      if (app != null && !app.equals(job.app())) {
        return false;
      }
      if (handler != null && !handler.equals(job.handler())) {
        return false;
      }
      if (enabled != null && enabled != job.enabled()) {
        return false;
      }
      if (text != null && !text.isEmpty()) {
        String needle = text.toLowerCase(Locale.ROOT);
        return job.id().toLowerCase(Locale.ROOT).contains(needle)
            || job.app().toLowerCase(Locale.ROOT).contains(needle)
            || job.handler().toLowerCase(Locale.ROOT).contains(needle)
            || job.owner().toLowerCase(Locale.ROOT).contains(needle);
      }
      return true;
    }
  }

  /** Every job matching {@code filter}, sorted by id. */
  public List<JobDefinition> find(Filter filter) {
    List<JobDefinition> jobs = new ArrayList<>();
    for (int shard = 0; shard < store.keys().shards(); shard++) {
      for (JobDefinition job : store.listShard(shard)) {
        if (filter.test(job)) {
          jobs.add(job);
        }
      }
    }
    jobs.sort(Comparator.comparing(JobDefinition::id));
    return jobs;
  }

  /** The next fire of each job: its due score, absent when it has none or is parked (+inf). */
  public Map<String, Long> nextFires(Collection<String> jobIds) {
    RedisKeys keys = store.keys();
    Map<String, CompletableFuture<Double>> reads = new HashMap<>();
    for (String id : jobIds) {
      reads.put(
          id, redis.async().zscore(RedisKeys.due(keys.shardOf(id)), id).toCompletableFuture());
    }
    Map<String, Long> next = new HashMap<>();
    for (var read : reads.entrySet()) {
      Double score = await(read.getValue());
      if (score != null && !score.isInfinite()) {
        next.put(read.getKey(), score.longValue());
      }
    }
    return next;
  }

  public Long nextFire(String jobId) {
    return nextFires(List.of(jobId)).get(jobId);
  }

  private <T> T await(CompletableFuture<T> future) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosException("interrupted reading next fire times", e);
    } catch (Exception e) {
      throw new KairosException("cannot read next fire times", e);
    }
  }
}
