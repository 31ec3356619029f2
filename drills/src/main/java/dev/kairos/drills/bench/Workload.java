package dev.kairos.drills.bench;

import dev.kairos.core.schedule.CronSchedule;
import dev.kairos.core.schedule.FixedRateSchedule;
import dev.kairos.core.schedule.Schedule;
import dev.kairos.drills.StartRecorder;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The two workloads of {@code docs/benchmarks.md}, as jobs a user creates over the REST API: every
 * job on the {@link StartRecorder#HANDLER} handler, CONSISTENT_HASH routing, every other field the
 * API's default (DO_NOTHING misfire with the default 5 s threshold).
 *
 * <ul>
 *   <li><b>W1</b>: J jobs each firing once a second, spread over the second. A cron cannot fire
 *       within a second, so these are FIXED_RATE 1000 ms jobs, whose phase is their creation time
 *       (the job model has no settable anchor): the bench creates them in {@link #PHASE_BANDS}
 *       imports over one sweep of a second, call k sent at offset k·10 ms (or at once when the
 *       previous calls ran past it), so the phases spread over the second in 10 ms steps. The
 *       anchors actually stored are read back and the expected fires computed from them.
 *   <li><b>W2</b>: J jobs with cron {@code * * * * * *} (UTC): all due on the same second.
 * </ul>
 */
enum Workload {
  W1,
  W2;

  /** W1's creation is paced into this many bands of the second (10 ms each). */
  static final int PHASE_BANDS = 100;

  private static final Schedule EVERY_SECOND = CronSchedule.parse("* * * * * *", ZoneOffset.UTC);

  /** The job as the import takes it. */
  Map<String, Object> job(String id, String app) {
    Map<String, Object> job = new LinkedHashMap<>();
    job.put("id", id);
    job.put("app", app);
    job.put("handler", StartRecorder.HANDLER);
    if (this == W1) {
      job.put("scheduleType", "FIXED_RATE");
      job.put("schedule", "1000");
    } else {
      job.put("scheduleType", "CRON");
      job.put("schedule", "* * * * * *");
    }
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
   * The jobs (indexes 0..count-1) of each import call, in order. W2: chunks of {@code maxBatch}.
   * W1: job i belongs to band {@code i·100/count}; a band's jobs go in one call (count ≤ 100 ×
   * maxBatch), empty bands are skipped. Pure: {@link #bandOf} gives the band of a W1 call.
   */
  List<List<Integer>> imports(int count, int maxBatch) {
    List<List<Integer>> calls = new ArrayList<>();
    if (this == W2) {
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

  /** The schedule of a job of this workload whose stored creation time is {@code createdMs}. */
  Schedule schedule(long createdMs) {
    return this == W1 ? new FixedRateSchedule(1000, createdMs) : EVERY_SECOND;
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
