package dev.kairos.drills.bench;

import dev.kairos.drills.StartRecorder;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;

/**
 * {@link ScaleBench}'s jobs: job {@code i} is a pure function of the seed, {@code i} and the time
 * its level's import began, so the bench never holds a million definitions and computes every job's
 * fires from the same function that made it.
 *
 * <p>The mix, exact in every block of 100 consecutive indexes (so exact at every level, each a
 * multiple of 100):
 *
 * <ul>
 *   <li>79 % {@link Kind#HOURLY}: cron {@code S M * * * *} at a random second and minute;
 *   <li>15 % {@link Kind#DAILY}: cron {@code S M H * * *} at a random time of day;
 *   <li>1 % {@link Kind#MINUTE}: cron {@code 0 * * * * *}, the top-of-minute burst (10,000 of a
 *       million);
 *   <li>3 % {@link Kind#FIXED_RATE}: every {@link #FIXED_RATE_MS} ms from its creation;
 *   <li>2 % {@link Kind#ONE_SHOT}: once, at a random instant in the 24 h after a minute past the
 *       level's import start.
 * </ul>
 *
 * Every cron is UTC. Every job runs {@link StartRecorder#HANDLER} (so each start is logged), routes
 * by CONSISTENT_HASH and keeps the API's other defaults (DO_NOTHING misfire, 5 s threshold); its
 * owner is one of {@link #OWNERS} teams ({@code team-00} …), for the API's owner search. At a
 * million jobs this is about 440 fires a second on average: 219 hourly, 167 top-of-minute (all in
 * the minute's first second), 50 fixed-rate, 2 daily.
 */
final class ScaleMix {

  /** What a job's schedule looks like. */
  enum Kind {
    HOURLY,
    DAILY,
    MINUTE,
    FIXED_RATE,
    ONE_SHOT
  }

  /** One job as the import takes it, with its kind. */
  record Spec(String id, Kind kind, String scheduleType, String schedule, String owner) {

    /** The job as {@code POST /api/v1/job-import} takes it. */
    Map<String, Object> importJob(String app) {
      Map<String, Object> job = new LinkedHashMap<>();
      job.put("id", id);
      job.put("app", app);
      job.put("handler", StartRecorder.HANDLER);
      job.put("scheduleType", scheduleType);
      job.put("schedule", schedule);
      job.put("routing", "CONSISTENT_HASH");
      job.put("owner", owner);
      return job;
    }
  }

  static final long FIXED_RATE_MS = 600_000;
  static final long ONE_SHOT_AFTER_MS = 60_000;
  static final long ONE_SHOT_SPAN_MS = 86_400_000;
  static final int OWNERS = 50;

  private static final long HOUR_MS = 3_600_000;
  private static final long DAY_MS = 86_400_000;
  private static final long MINUTE_MS = 60_000;

  private final long seed;

  ScaleMix(long seed) {
    this.seed = seed;
  }

  /** The kind of job {@code i}: fixed by {@code i mod 100}. */
  static Kind kind(long i) {
    int r = (int) (i % 100);
    if (r == 0) {
      return Kind.MINUTE;
    }
    if (r <= 3) {
      return Kind.FIXED_RATE;
    }
    if (r <= 5) {
      return Kind.ONE_SHOT;
    }
    if (r <= 20) {
      return Kind.DAILY;
    }
    return Kind.HOURLY;
  }

  /** The id of job {@code i}: {@code scale-} and seven digits, so ids sort as indexes do. */
  static String id(long i) {
    return String.format(Locale.ROOT, "scale-%07d", i);
  }

  /** The index of a job id made by {@link #id}. */
  static long index(String id) {
    return Long.parseLong(id.substring("scale-".length()));
  }

  /** Job {@code i} of a level whose import began at {@code levelStartMs}. */
  Spec spec(long i, long levelStartMs) {
    Kind kind = kind(i);
    Draw d = draw(i);
    String owner = String.format(Locale.ROOT, "team-%02d", i % OWNERS);
    return switch (kind) {
      case HOURLY -> new Spec(id(i), kind, "CRON", d.second + " " + d.minute + " * * * *", owner);
      case DAILY ->
          new Spec(id(i), kind, "CRON", d.second + " " + d.minute + " " + d.hour + " * * *", owner);
      case MINUTE -> new Spec(id(i), kind, "CRON", "0 * * * * *", owner);
      case FIXED_RATE -> new Spec(id(i), kind, "FIXED_RATE", Long.toString(FIXED_RATE_MS), owner);
      case ONE_SHOT ->
          new Spec(id(i), kind, "ONE_SHOT", Long.toString(oneShotDue(i, levelStartMs)), owner);
    };
  }

  /** The due instant of ONE_SHOT job {@code i} of a level whose import began at that time. */
  long oneShotDue(long i, long levelStartMs) {
    return levelStartMs + ONE_SHOT_AFTER_MS + draw(i).offsetMs;
  }

  /**
   * Calls {@code out} with every fire time of job {@code i} in {@code [fromMs, toMs)}: computed,
   * not observed. {@code anchorMs} is the job's stored creation time (its FIXED_RATE phase), {@code
   * levelStartMs} its level's import start (its ONE_SHOT due instant); each kind ignores the other.
   */
  void fires(long i, long levelStartMs, long anchorMs, long fromMs, long toMs, LongConsumer out) {
    Draw d = draw(i);
    switch (kind(i)) {
      case HOURLY -> periodic(HOUR_MS, (d.minute * 60L + d.second) * 1000, fromMs, toMs, out);
      case DAILY ->
          periodic(DAY_MS, ((d.hour * 60L + d.minute) * 60 + d.second) * 1000, fromMs, toMs, out);
      case MINUTE -> periodic(MINUTE_MS, 0, fromMs, toMs, out);
      case FIXED_RATE ->
          // The first fire is a period after creation (Schedules.firstFire from the anchor).
          periodic(FIXED_RATE_MS, anchorMs, Math.max(fromMs, anchorMs + 1), toMs, out);
      case ONE_SHOT -> {
        long due = oneShotDue(i, levelStartMs);
        if (due >= fromMs && due < toMs) {
          out.accept(due);
        }
      }
    }
  }

  /**
   * {@code offsetMs + k·periodMs} for every integer k with the result in {@code [fromMs, toMs)}.
   */
  static void periodic(long periodMs, long offsetMs, long fromMs, long toMs, LongConsumer out) {
    long k = Math.floorDiv(fromMs - offsetMs + periodMs - 1, periodMs);
    for (long t = offsetMs + k * periodMs; t < toMs; t += periodMs) {
      out.accept(t);
    }
  }

  /** The random choices of job {@code i}. */
  private record Draw(int second, int minute, int hour, long offsetMs) {}

  private Draw draw(long i) {
    SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + i);
    return new Draw(
        random.nextInt(60),
        random.nextInt(60),
        random.nextInt(24),
        random.nextLong(ONE_SHOT_SPAN_MS));
  }
}
