package dev.kairos.core.schedule;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.JobScheduling;
import dev.kairos.core.model.MisfireStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Decides which fires of one due job the leader claims in a scan, and where the job goes next. A
 * pure function of its inputs, so the scanner's arithmetic is tested without Redis.
 *
 * <ul>
 *   <li>Every fire ≤ horizon is claimed (a job firing every 100 ms gets all 50 fires of a 5 s
 *       window), up to {@link #maxFiresPerJob()}; at the cap the job's new score is its first
 *       unclaimed fire, so the next scan continues where this one stopped and no fire is lost.
 *   <li><b>Misfire</b>: the current due score is older than {@code now − threshold}. DO_NOTHING
 *       skips every missed fire and continues from the first fire after now; FIRE_ONCE_NOW claims
 *       one fire at {@code now} (its trigger id carries {@code now}) and then continues the same
 *       way.
 *   <li>FIXED_DELAY claims one fire and parks (+inf) until its trigger ends; after a DO_NOTHING
 *       misfire its next fire is now + interval. ONE_SHOT and exhausted crons are removed after
 *       their last fire. API jobs are never in the due ZSET; one found there is removed.
 * </ul>
 */
public final class FireWindow {

  public static final int DEFAULT_MAX_FIRES_PER_JOB = 1000;

  private final int maxFiresPerJob;

  public FireWindow() {
    this(DEFAULT_MAX_FIRES_PER_JOB);
  }

  public FireWindow(int maxFiresPerJob) {
    if (maxFiresPerJob < 1) {
      throw new IllegalArgumentException("maxFiresPerJob must be >= 1 but was " + maxFiresPerJob);
    }
    this.maxFiresPerJob = maxFiresPerJob;
  }

  public int maxFiresPerJob() {
    return maxFiresPerJob;
  }

  /** {@link #plan(Schedule, MisfireStrategy, long, long, long, long)} with the job's settings. */
  public FirePlan plan(
      JobDefinition job, Schedule schedule, long dueMs, long nowMs, long horizonMs) {
    return plan(job, schedule, dueMs, nowMs, horizonMs, 0);
  }

  /**
   * With the job's settings, forgiving {@code forgivenMs} of lateness: the time the scheduler
   * itself could not scan the job's shard (a failover or an outage), which is no misfire of the
   * job's.
   */
  public FirePlan plan(
      JobDefinition job,
      Schedule schedule,
      long dueMs,
      long nowMs,
      long horizonMs,
      long forgivenMs) {
    return plan(
        schedule,
        job.misfireStrategy(),
        forgiving(job.misfireThresholdMs(), forgivenMs),
        dueMs,
        nowMs,
        horizonMs);
  }

  /** {@link #plan(JobDefinition, Schedule, long, long, long, long)} for the scan's job view. */
  public FirePlan plan(
      JobScheduling job,
      Schedule schedule,
      long dueMs,
      long nowMs,
      long horizonMs,
      long forgivenMs) {
    return plan(
        schedule,
        job.misfireStrategy(),
        forgiving(job.misfireThresholdMs(), forgivenMs),
        dueMs,
        nowMs,
        horizonMs);
  }

  private static long forgiving(long threshold, long forgivenMs) {
    if (forgivenMs < 0) {
      throw new IllegalArgumentException("forgivenMs must not be negative: " + forgivenMs);
    }
    return threshold > Long.MAX_VALUE - forgivenMs ? Long.MAX_VALUE : threshold + forgivenMs;
  }

  /**
   * @param schedule the job's parsed schedule (callers cache it per schedule version)
   * @param dueMs the job's current score in the due ZSET
   * @param nowMs cluster time
   * @param horizonMs now + pre-read window: fires up to and including it are claimed
   */
  public FirePlan plan(
      Schedule schedule,
      MisfireStrategy misfire,
      long misfireThresholdMs,
      long dueMs,
      long nowMs,
      long horizonMs) {
    Objects.requireNonNull(schedule, "schedule");
    Objects.requireNonNull(misfire, "misfire");
    if (schedule instanceof ApiSchedule) {
      return new FirePlan(List.of(), NextDue.REMOVE, false, false);
    }
    if (dueMs > horizonMs) {
      return new FirePlan(List.of(), NextDue.at(dueMs), false, false);
    }
    List<Long> fires = new ArrayList<>();
    boolean misfired = dueMs < nowMs - misfireThresholdMs;
    OptionalLong cursor;
    if (!misfired) {
      cursor = OptionalLong.of(dueMs);
    } else {
      if (misfire == MisfireStrategy.FIRE_ONCE_NOW) {
        fires.add(nowMs);
        if (schedule instanceof FixedDelaySchedule) {
          return new FirePlan(fires, NextDue.PARK, true, false);
        }
      }
      cursor =
          schedule instanceof FixedDelaySchedule delay
              ? OptionalLong.of(delay.nextFireAfterEnd(nowMs))
              : schedule.nextFireAfter(nowMs);
    }
    while (cursor.isPresent() && cursor.getAsLong() <= horizonMs) {
      if (fires.size() >= maxFiresPerJob) {
        return new FirePlan(fires, NextDue.at(cursor.getAsLong()), misfired, true);
      }
      fires.add(cursor.getAsLong());
      if (schedule instanceof FixedDelaySchedule) {
        return new FirePlan(fires, NextDue.PARK, misfired, false);
      }
      cursor = schedule.nextFireAfter(cursor.getAsLong());
    }
    NextDue next = cursor.isPresent() ? NextDue.at(cursor.getAsLong()) : NextDue.REMOVE;
    return new FirePlan(fires, next, misfired, false);
  }
}
