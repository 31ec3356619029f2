package dev.kairos.drills.bench;

import dev.kairos.core.schedule.CronSchedule;
import dev.kairos.core.schedule.FixedRateSchedule;
import dev.kairos.core.schedule.OneShotSchedule;
import dev.kairos.core.schedule.Schedule;
import dev.kairos.drills.StartRecorder;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The workloads of {@code docs/benchmarks.md}, as jobs a user creates over the REST API: every job
 * on the {@link StartRecorder#HANDLER} handler, CONSISTENT_HASH routing, every other field the
 * API's default (DO_NOTHING misfire with the default 5 s threshold).
 *
 * <ul>
 *   <li><b>W2</b>: J jobs with cron {@code * * * * * *} (UTC): all due on the same second.
 *   <li><b>W1</b>: J jobs each firing once a second, spread over the second. A cron cannot fire
 *       within a second, so these are FIXED_RATE 1000 ms jobs, whose phase is their creation time
 *       (the job model has no settable anchor): the bench creates them in {@link #PHASE_BANDS}
 *       imports over one sweep of a second, call k sent at offset k·10 ms (or at once when the
 *       previous calls ran past it), so the phases spread over the second in 10 ms steps. The
 *       anchors actually stored are read back and the expected fires computed from them.
 *   <li><b>M1</b> (top of the minute): J jobs with cron {@code 0 * * * * *} (UTC): one burst of J
 *       fires at every whole minute.
 *   <li><b>MIDNIGHT</b>: N ONE_SHOT jobs all due at one instant ({@link #oneShotJob}), a one-off
 *       burst such as every nightly job of a company at 00:00.
 * </ul>
 */
enum Workload {
  W1,
  W2,
  M1,
  MIDNIGHT;

  /** W1's creation is paced into this many bands of the second (10 ms each). */
  static final int PHASE_BANDS = 100;

  private static final String EVERY_SECOND_CRON = "* * * * * *";
  private static final String TOP_OF_MINUTE_CRON = "0 * * * * *";
  private static final Schedule EVERY_SECOND =
      CronSchedule.parse(EVERY_SECOND_CRON, ZoneOffset.UTC);
  private static final Schedule TOP_OF_MINUTE =
      CronSchedule.parse(TOP_OF_MINUTE_CRON, ZoneOffset.UTC);

  /** Whether its jobs fire again and again (W1, W2, M1), rather than once (MIDNIGHT). */
  boolean recurring() {
    return this != MIDNIGHT;
  }

  /** A job of a recurring workload as the import takes it. */
  Map<String, Object> job(String id, String app) {
    return switch (this) {
      case W1 -> job(id, app, "FIXED_RATE", "1000");
      case W2 -> job(id, app, "CRON", EVERY_SECOND_CRON);
      case M1 -> job(id, app, "CRON", TOP_OF_MINUTE_CRON);
      case MIDNIGHT -> throw new IllegalStateException("MIDNIGHT jobs need their due instant");
    };
  }

  /** A MIDNIGHT job: ONE_SHOT at {@code dueMs} (epoch ms, the schedule's text). */
  static Map<String, Object> oneShotJob(String id, String app, long dueMs) {
    return job(id, app, "ONE_SHOT", Long.toString(dueMs));
  }

  private static Map<String, Object> job(
      String id, String app, String scheduleType, String schedule) {
    Map<String, Object> job = new LinkedHashMap<>();
    job.put("id", id);
    job.put("app", app);
    job.put("handler", StartRecorder.HANDLER);
    job.put("scheduleType", scheduleType);
    job.put("schedule", schedule);
    job.put("routing", "CONSISTENT_HASH");
    return job;
  }

  /**
   * A job for the write probe: created disabled, with a cron that fires once a year (UTC New Year),
   * so creating, enabling and deleting it measure the write path and add no fires.
   */
  static Map<String, Object> parkedJob(String id, String app) {
    Map<String, Object> job = new LinkedHashMap<>();
    job.put("id", id);
    job.put("app", app);
    job.put("handler", StartRecorder.HANDLER);
    job.put("scheduleType", "CRON");
    job.put("schedule", "0 0 0 1 1 *");
    job.put("routing", "CONSISTENT_HASH");
    job.put("enabled", false);
    return job;
  }

  /**
   * The jobs (indexes 0..count-1) of each import call, in order. W2, M1, MIDNIGHT: chunks of {@code
   * maxBatch}. W1: job i belongs to band {@code i·100/count}; a band's jobs go in one call (count ≤
   * 100 × maxBatch), empty bands are skipped. Pure: {@link #bandOf} gives the band of a W1 call.
   */
  List<List<Integer>> imports(int count, int maxBatch) {
    List<List<Integer>> calls = new ArrayList<>();
    if (this != W1) {
      for (int from = 0; from < count; from += maxBatch) {
        List<Integer> call = new ArrayList<>();
        for (int i = from; i < Math.min(count, from + maxBatch); i++) {
          call.add(i);
        }
        calls.add(call);
      }
      return calls;
    }
    if (count > PHASE_BANDS * maxBatch) {
      throw new IllegalArgumentException(
          "W1 supports at most " + PHASE_BANDS * maxBatch + " jobs, got " + count);
    }
    List<Integer> current = new ArrayList<>();
    int band = 0;
    for (int i = 0; i < count; i++) {
      int b = bandOf(i, count);
      if (b != band && !current.isEmpty()) {
        calls.add(current);
        current = new ArrayList<>();
      }
      band = b;
      current.add(i);
    }
    if (!current.isEmpty()) {
      calls.add(current);
    }
    return calls;
  }

  /** W1: the band (0..99) job {@code i} of {@code count} is created in. */
  static int bandOf(int i, int count) {
    return (int) ((long) i * PHASE_BANDS / count);
  }

  /**
   * The schedule of a job of this workload: {@code anchorMs} is its stored creation time (W1's
   * FIXED_RATE phase) or, for MIDNIGHT, its due instant; the crons ignore it.
   */
  Schedule schedule(long anchorMs) {
    return switch (this) {
      case W1 -> new FixedRateSchedule(1000, anchorMs);
      case W2 -> EVERY_SECOND;
      case M1 -> TOP_OF_MINUTE;
      case MIDNIGHT -> new OneShotSchedule(anchorMs);
    };
  }

  /**
   * Trigger ids ({@code <job>:<fireMs>}) of the fires in {@code [fromMs, toMs)} of the jobs {@code
   * anchors} names, each job's schedule from its anchor ({@link #schedule}).
   */
  List<String> expectedFires(Map<String, Long> anchors, long fromMs, long toMs) {
    List<String> expected = new ArrayList<>();
    anchors.forEach(
        (job, anchor) -> {
          for (long t : fireTimes(schedule(anchor), fromMs, toMs)) {
            expected.add(job + ":" + t);
          }
        });
    return expected;
  }

  /** Fire times of {@code schedule} in {@code [fromMs, toMs)}, computed, never observed. */
  static List<Long> fireTimes(Schedule schedule, long fromMs, long toMs) {
    List<Long> times = new ArrayList<>();
    OptionalLong next = schedule.nextFireAfter(fromMs - 1);
    while (next.isPresent() && next.getAsLong() < toMs) {
      times.add(next.getAsLong());
      next = schedule.nextFireAfter(next.getAsLong());
    }
    return times;
  }
}
