package dev.kairos.drills.bench;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.drills.DrillNode;
import dev.kairos.drills.StartLedger;
import dev.kairos.sync.rebuild.RebuildKeys;
import io.lettuce.core.RedisFuture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * A whole Redis lost, as a master without a replica loses its data, while the cluster runs: waits
 * until PostgreSQL holds every stored job (persistence-sync caught up), then {@code FLUSHALL}.
 * Every node's shard initialiser finds no marker at all within its check interval, marks every
 * shard provisional (scheduled at once, empty) and restores the jobs PostgreSQL holds from before
 * that mark, each with its next fire recomputed from its last known fire (persistence-sync's {@code
 * RedisRebuilder}); each shard's marker turns final once its jobs are back.
 *
 * <p>Measured from the flush, every 250 ms: when every shard had a marker again (scanned), when
 * every marker was final (the rebuild done), when Redis held every job again (its index) and how
 * many with a due score; when the first fire claimed after the flush started (scheduling resumed);
 * then, 30 s after the last job returned, what happened to every fire due from 5 s before the flush
 * (claimed then, its wheel entry lost) until the last job was back: started (how late), not started
 * (skipped by the default DO_NOTHING misfire rule once restored more than 5 s late, or lost in
 * flight), started twice. A sample of jobs' due scores from before the flush is compared with
 * theirs after.
 */
final class RebuildProbe {

  private static final Duration SYNC_DEADLINE = Duration.ofMinutes(20);
  private static final Duration REBUILD_DEADLINE = Duration.ofMinutes(20);
  private static final long PRE_READ_MS = 5_000;
  private static final long AFTER_BACK_MS = 30_000;
  private static final int SCORE_SAMPLES = 2_000;
  private static final long WAIT_S = 60;

  /** Due scores of sampled jobs after the rebuild against before it. */
  record Scores(int same, int later, int earlier, int missing) {

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "same %,d / later %,d / earlier %,d / missing %,d",
          same,
          later,
          earlier,
          missing);
    }
  }

  /** What the rebuild measured; times in seconds from the flush, -1 when never reached. */
  record Result(
      long jobs,
      double syncWaitSeconds,
      long dueBefore,
      long flushMs,
      double markedSeconds,
      double finalSeconds,
      double jobsBackSeconds,
      long jobsAfter,
      long dueAfter,
      double firstStartSeconds,
      double restoredByNodes,
      FireOutcome gap,
      int missedDueBeforeFlush,
      int missedDueAfterFlush,
      Scores scores,
      long usedMemoryAfter) {}

  private final BenchCluster cluster;
  private final ScaleStore store;
  private final String label;

  RebuildProbe(BenchCluster cluster, ScaleStore store, String label) {
    this.cluster = cluster;
    this.store = store;
    this.label = label;
  }

  Result run() throws InterruptedException {
    long jobs = store.size();
    KairosRedis redis = cluster.redis();
    RedisKeys keys = cluster.keys();
    long syncBegan = System.nanoTime();
    long deadline = syncBegan + SYNC_DEADLINE.toNanos();
    long synced;
    while ((synced = PgSizes.liveJobs(cluster.postgres())) < jobs) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            label
                + ": PostgreSQL holds "
                + synced
                + " of "
                + jobs
                + " jobs after "
                + SYNC_DEADLINE);
      }
      Thread.sleep(2_000);
    }
    double syncWait = (System.nanoTime() - syncBegan) / 1e9;
    List<String> sample = sampleIds(jobs);
    Map<String, Double> before = scores(redis, keys, sample);
    Counts countsBefore = counts(redis, keys);
    double restoredBefore = restoredByNodes();
    long flushMs = System.currentTimeMillis();
    redis.sync().flushall();
    BenchOut.say(
        "%s: PostgreSQL held all %,d jobs after %.1f s; Redis flushed (FLUSHALL) at %d with %,d"
            + " jobs, %,d due",
        label, jobs, syncWait, flushMs, countsBefore.jobs, countsBefore.due);
    ResumeWatch resumed = new ResumeWatch(cluster, store, flushMs, flushMs - PRE_READ_MS);

    long marked = -1;
    long finalMs = -1;
    long back = -1;
    long firstStart = -1;
    Counts counts = Counts.NONE;
    long rebuildDeadline = System.nanoTime() + REBUILD_DEADLINE.toNanos();
    long lastSay = System.nanoTime();
    int polls = 0;
    while (marked < 0 || finalMs < 0 || back < 0 || firstStart < 0) {
      if (System.nanoTime() > rebuildDeadline) {
        BenchOut.say(
            "%s: rebuild not complete after %s: %s", label, REBUILD_DEADLINE, counts.line(jobs));
        break;
      }
      Thread.sleep(250);
      long now = System.currentTimeMillis();
      counts = counts(redis, keys);
      if (marked < 0 && counts.marked == keys.shards()) {
        marked = now;
      }
      if (finalMs < 0 && counts.finalMarkers == keys.shards()) {
        finalMs = now;
      }
      if (back < 0 && counts.jobs >= jobs) {
        back = now;
      }
      if (firstStart < 0 && ++polls % 4 == 0) { // the start logs once a second
        firstStart = resumed.poll();
      }
      if (System.nanoTime() - lastSay > 10_000_000_000L) {
        lastSay = System.nanoTime();
        BenchOut.say(
            "%s: %.0f s after the flush: %s", label, (now - flushMs) / 1e3, counts.line(jobs));
      }
    }
    long backMs = back > 0 ? back : System.currentTimeMillis();
    WallClock.sleepUntil(backMs + AFTER_BACK_MS);
    Counts after = counts(redis, keys);
    Map<String, Double> afterScores = scores(redis, keys, sample);
    long usedAfter = cluster.memory().usedMemory();
    List<String> expected = store.expectedFires(flushMs - PRE_READ_MS, backMs);
    // No drain: a fire the misfire rule skipped never starts, so what has not started 30 s after
    // the last job came back is counted as not started.
    StartLedger.Outcome outcome = cluster.ledger().observe(expected, cluster.executors());
    int missedBefore = 0;
    int missedAfter = 0;
    for (String id : expected) {
      if (!outcome.firstStartMs().containsKey(id)) {
        if (FireOutcome.fireMs(id) < flushMs) {
          missedBefore++;
        } else {
          missedAfter++;
        }
      }
    }
    return new Result(
        jobs,
        syncWait,
        countsBefore.due,
        flushMs,
        seconds(marked, flushMs),
        seconds(finalMs, flushMs),
        seconds(back, flushMs),
        after.jobs,
        after.due,
        seconds(firstStart, flushMs),
        restoredByNodes() - restoredBefore,
        FireOutcome.of(outcome),
        missedBefore,
        missedAfter,
        compare(before, afterScores),
        usedAfter);
  }

  private static double seconds(long atMs, long flushMs) {
    return atMs < 0 ? -1 : (atMs - flushMs) / 1e3;
  }

  /** Jobs restored so far, summed over the nodes' {@code kairos.rebuild.jobs.restored}. */
  private double restoredByNodes() {
    double sum = 0;
    for (DrillNode node : cluster.nodes()) {
      try {
        sum += node.probe().metric("kairos_rebuild_jobs_restored_total");
      } catch (RuntimeException e) {
        BenchOut.say("%s: cannot read %s's rebuild counter: %s", label, node.name(), e);
      }
    }
    return sum;
  }

  private List<String> sampleIds(long jobs) {
    SplittableRandom random = new SplittableRandom(jobs);
    List<String> ids = new ArrayList<>();
    for (int k = 0; k < Math.min(SCORE_SAMPLES, jobs); k++) {
      ids.add(ScaleMix.id(random.nextLong(jobs)));
    }
    return ids;
  }

  private static Map<String, Double> scores(KairosRedis redis, RedisKeys keys, List<String> ids) {
    List<RedisFuture<Double>> futures = new ArrayList<>();
    for (String id : ids) {
      futures.add(redis.async().zscore(RedisKeys.due(keys.shardOf(id)), id));
    }
    Map<String, Double> scores = new HashMap<>();
    for (int k = 0; k < ids.size(); k++) {
      scores.put(ids.get(k), await(futures.get(k)));
    }
    return scores;
  }

  static Scores compare(Map<String, Double> before, Map<String, Double> after) {
    int same = 0;
    int later = 0;
    int earlier = 0;
    int missing = 0;
    for (Map.Entry<String, Double> e : before.entrySet()) {
      Double b = e.getValue();
      Double a = after.get(e.getKey());
      if (a == null) {
        if (b == null) {
          same++;
        } else {
          missing++;
        }
      } else if (b == null || a > b) {
        later++;
      } else if (a < b) {
        earlier++;
      } else {
        same++;
      }
    }
    return new Scores(same, later, earlier, missing);
  }

  /** Shard markers, jobs in the index and jobs with a due score, over every shard. */
  private record Counts(int marked, int finalMarkers, long jobs, long due) {
    static final Counts NONE = new Counts(0, 0, 0, 0);

    String line(long expectedJobs) {
      return String.format(
          Locale.ROOT,
          "%d shards marked (%d final), %,d of %,d jobs, %,d due",
          marked,
          finalMarkers,
          jobs,
          expectedJobs,
          due);
    }
  }

  private static Counts counts(KairosRedis redis, RedisKeys keys) {
    int shards = keys.shards();
    List<RedisFuture<String>> markers = new ArrayList<>(shards);
    List<RedisFuture<Long>> ids = new ArrayList<>(shards);
    List<RedisFuture<Long>> due = new ArrayList<>(shards);
    for (int s = 0; s < shards; s++) {
      markers.add(redis.async().get(RebuildKeys.initialised(s)));
      ids.add(redis.async().zcard(RedisKeys.jobIds(s)));
      due.add(redis.async().zcard(RedisKeys.due(s)));
    }
    int marked = 0;
    int finalMarkers = 0;
    long jobs = 0;
    long dueCount = 0;
    for (int s = 0; s < shards; s++) {
      String marker = await(markers.get(s));
      if (marker != null) {
        marked++;
        if (RebuildKeys.provisionalSince(marker) < 0) {
          finalMarkers++;
        }
      }
      jobs += await(ids.get(s));
      dueCount += await(due.get(s));
    }
    return new Counts(marked, finalMarkers, jobs, dueCount);
  }

  private static <T> T await(RedisFuture<T> future) {
    try {
      return future.get(WAIT_S, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted reading Redis", e);
    } catch (Exception e) {
      throw new IllegalStateException("reading Redis failed: " + e, e);
    }
  }
}
