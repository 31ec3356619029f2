package dev.kairos.protocol.claim;

import dev.kairos.core.calendar.SkippedFire;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.schedule.NextDue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * One call of {@code claim_fires.lua}: the claims of a batch of jobs and ad-hoc triggers of ONE
 * shard, written atomically and fenced by the leader's term. Not thread-safe: one scanner task
 * builds and sends it.
 */
public final class ClaimBatch {

  private static final LuaScript CLAIM = LuaScript.load(ClaimBatch.class, "claim_fires");

  /**
   * How many of a job's newest triggers its index ({@code RedisKeys.jobTriggers}) keeps: what the
   * API lists of a job while PostgreSQL does not answer, and where it finds a job's triggers that
   * have not ended. Below Redis' listpack limit for sorted sets (128), so an index of a job that
   * fires every second costs about 40 bytes per entry instead of a skiplist's 100.
   */
  public static final int JOB_TRIGGER_INDEX_SIZE = 100;

  private final int shard;
  private final long term;
  private final long nowMs;
  private final long dedupWindowMs;
  private final long eventsMaxLen;
  private final List<JobClaim> jobs = new ArrayList<>();
  private final List<AdhocClaim> adhocs = new ArrayList<>();
  private int fires;
  private int skipped;

  public ClaimBatch(int shard, long term, long nowMs, long dedupWindowMs) {
    this(shard, term, nowMs, dedupWindowMs, RedisKeys.DEFAULT_EVENTS_MAX_LEN);
  }

  /**
   * @param eventsMaxLen approximate bound of the shard's events stream, which gets the
   *     TRIGGER_ENDED event of every fire recorded SKIPPED
   */
  public ClaimBatch(int shard, long term, long nowMs, long dedupWindowMs, long eventsMaxLen) {
    if (term < 1) {
      throw new IllegalArgumentException("term must be >= 1 but was " + term);
    }
    this.shard = shard;
    this.term = term;
    this.nowMs = nowMs;
    this.dedupWindowMs = dedupWindowMs;
    this.eventsMaxLen = eventsMaxLen;
  }

  public ClaimBatch add(JobClaim claim) {
    jobs.add(claim);
    fires += claim.fires().size();
    skipped += claim.skipped().size();
    return this;
  }

  public ClaimBatch add(AdhocClaim claim) {
    adhocs.add(claim);
    return this;
  }

  public List<AdhocClaim> adhocs() {
    return List.copyOf(adhocs);
  }

  public int shard() {
    return shard;
  }

  public long term() {
    return term;
  }

  public List<JobClaim> jobs() {
    return List.copyOf(jobs);
  }

  public boolean isEmpty() {
    return jobs.isEmpty() && adhocs.isEmpty();
  }

  /** Fires across all jobs of the batch. */
  public int fireCount() {
    return fires;
  }

  /** Fires across all jobs of the batch that a calendar excludes (recorded SKIPPED). */
  public int skippedCount() {
    return skipped;
  }

  String[] keys() {
    if (skipped > 0) {
      return new String[] {
        RedisKeys.fence(shard),
        RedisKeys.due(shard),
        RedisKeys.nodes(shard),
        RedisKeys.adhoc(shard),
        RedisKeys.events(shard)
      };
    }
    return new String[] {
      RedisKeys.fence(shard), RedisKeys.due(shard), RedisKeys.nodes(shard), RedisKeys.adhoc(shard)
    };
  }

  String[] args() {
    List<String> args = new ArrayList<>(10 + jobs.size() * 5 + fires * 2 + adhocs.size() * 2);
    args.add(Long.toString(term));
    args.add(Long.toString(nowMs));
    args.add(Long.toString(dedupWindowMs));
    args.add(RedisKeys.jobPrefix(shard));
    args.add(RedisKeys.triggerPrefix(shard));
    args.add(RedisKeys.wheel(shard, ""));
    args.add(RedisKeys.endedPrefix(shard));
    args.add(Long.toString(RedisKeys.ENDED_BUCKET_MS));
    args.add(RedisKeys.jobTriggers(shard, ""));
    args.add(Integer.toString(JOB_TRIGGER_INDEX_SIZE));
    args.add(Integer.toString(jobs.size()));
    for (JobClaim job : jobs) {
      args.add(job.jobId());
      args.add(Long.toString(job.expectedScore()));
      args.add(encode(job.next()));
      args.add(Long.toString(job.scheduleVersion()));
      args.add(Integer.toString(job.fires().size()));
      for (Fire fire : job.fires()) {
        args.add(Long.toString(fire.fireMs()));
        args.add(fire.node());
      }
    }
    args.add(Integer.toString(adhocs.size()));
    args.add(RedisKeys.adhocRequestPrefix(shard));
    for (AdhocClaim adhoc : adhocs) {
      args.add(adhoc.triggerId());
      args.add(adhoc.node());
    }
    // Only a batch with calendar skips carries the section: jobs without calendars cost nothing.
    if (skipped > 0) {
      args.add(Integer.toString(skipped));
      args.add(Long.toString(eventsMaxLen));
      for (int j = 0; j < jobs.size(); j++) {
        for (SkippedFire skip : jobs.get(j).skipped()) {
          args.add(Integer.toString(j + 1));
          args.add(Long.toString(skip.fireMs()));
          args.add(skip.calendar());
        }
      }
    }
    return args.toArray(String[]::new);
  }

  /** The new-score argument of claim_fires.lua. */
  static String encode(NextDue next) {
    return switch (next.kind()) {
      case AT -> Long.toString(next.atMs());
      case PARK -> "+inf";
      case REMOVE -> "remove";
    };
  }

  /** Sends the batch; the stage fails only on a Redis error, a fence rejection is an outcome. */
  public CompletionStage<ClaimOutcome> send(RedisClusterAsyncCommands<String, String> redis) {
    return CLAIM
        .<List<Object>>evalAsync(redis, ScriptOutputType.MULTI, keys(), args())
        .thenApply(this::parse);
  }

  ClaimOutcome parse(List<Object> reply) {
    long fence = (Long) reply.get(1);
    if ((Long) reply.get(0) == 0L) {
      return ClaimOutcome.rejected(shard, term, fence);
    }
    List<Integer> perJob = new ArrayList<>(jobs.size());
    List<Boolean> perAdhoc = new ArrayList<>(adhocs.size());
    int skippedRecorded = 0;
    for (int i = 3; i < reply.size(); i++) {
      if (perJob.size() < jobs.size()) {
        perJob.add(((Long) reply.get(i)).intValue());
      } else if (perAdhoc.size() < adhocs.size()) {
        perAdhoc.add((Long) reply.get(i) == 1L);
      } else {
        skippedRecorded = ((Long) reply.get(i)).intValue();
      }
    }
    return new ClaimOutcome(
        shard,
        term,
        true,
        fence,
        ((Long) reply.get(2)).intValue(),
        perJob,
        perAdhoc,
        skippedRecorded);
  }
}
