package dev.kairos.drills;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.MisfireStrategy;
import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.core.redis.JobFields;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.JobStore;
import io.lettuce.core.RedisFuture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.LongStream;

/**
 * The drill's workload: {@code count} jobs firing every second on the second (cron {@code * * * * *
 * *}, UTC), all on the {@link StartRecorder} handler of one executor app. Because the schedule is
 * this simple, the expected fires of a window are computed from it, never from what was observed.
 *
 * <p>The jobs keep the default misfire threshold (5 s, DO_NOTHING). The scheduler forgives a fire
 * the time its shard went unscanned (a failover, a Redis or ZooKeeper outage, passes failing on
 * timeouts on the loaded build machine; {@code kairos.cluster.misfire-grace}), so none of the
 * drills' faults may turn a fire into a misfire: every fire of the window must start.
 *
 * <p>The jobs route by CONSISTENT_HASH (rendezvous over the live slots), not the FIRST default, so
 * both executors share the load and each slot's queue carries fires: a killed executor leaves a
 * backlog, and one executor does not have to start all 300 fires a second alone.
 */
public record DrillJobs(List<String> jobIds) {

  /** The API's default: the drills prove their faults cost no fire without a wider threshold. */
  public static final Duration MISFIRE_THRESHOLD =
      Duration.ofMillis(JobDefinition.DEFAULT_MISFIRE_THRESHOLD_MS);

  /** Creates the jobs through the write-through job store, as the admin API would. */
  public static DrillJobs create(JobStore store, String app, String prefix, int count) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      JobDefinition job =
          JobDefinition.builder(prefix + "-" + i)
              .app(app)
              .handler(StartRecorder.HANDLER)
              .cron("* * * * * *")
              .misfire(MisfireStrategy.DO_NOTHING, MISFIRE_THRESHOLD.toMillis())
              .routing(RoutingStrategy.CONSISTENT_HASH)
              .build();
      ids.add(store.create(job).id());
    }
    return new DrillJobs(List.copyOf(ids));
  }

  /**
   * Jobs that the leader has not claimed a fire of yet (no {@code lastFireMs} in the job hash): a
   * window should start only once this is empty, when the first pass's burst of claims (every job's
   * whole pre-read window at once) is behind the cluster.
   */
  public List<String> unclaimed(KairosRedis redis, RedisKeys keys) {
    Map<String, RedisFuture<String>> reads = new LinkedHashMap<>();
    for (String job : jobIds) {
      reads.put(
          job, redis.async().hget(RedisKeys.job(keys.shardOf(job), job), JobFields.LAST_FIRE_MS));
    }
    List<String> unclaimed = new ArrayList<>();
    for (Map.Entry<String, RedisFuture<String>> read : reads.entrySet()) {
      try {
        String last = read.getValue().get(30, TimeUnit.SECONDS);
        if (last == null || last.isEmpty()) {
          unclaimed.add(read.getKey());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted reading job " + read.getKey(), e);
      } catch (ExecutionException | TimeoutException e) {
        throw new IllegalStateException("cannot read job " + read.getKey(), e);
      }
    }
    return unclaimed;
  }

  /** Every fire time (epoch ms) of one job in {@code [fromMs, toMs)}: each whole second. */
  public static LongStream fireTimes(long fromMs, long toMs) {
    long first = Math.floorDiv(fromMs + 999, 1000) * 1000;
    return LongStream.iterate(first, t -> t < toMs, t -> t + 1000);
  }

  /** The trigger ids (docs/design.md "Trigger identity") of every expected fire in the window. */
  public List<String> expectedTriggerIds(long fromMs, long toMs) {
    List<String> ids = new ArrayList<>();
    fireTimes(fromMs, toMs).forEach(t -> jobIds.forEach(job -> ids.add(job + ":" + t)));
    return ids;
  }
}
