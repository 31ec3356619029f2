package dev.kairos.backfill;

import dev.kairos.core.model.ScheduleType;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.schedule.CronDialect;
import dev.kairos.core.schedule.Schedule;
import dev.kairos.core.schedule.Schedules;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One backfill as stored: a job's fires for [{@code fromMs}, {@code toMs}], at most {@code
 * maxConcurrent} in flight, with its progress. The schedule is the job's at creation, kept with the
 * backfill so a later edit of the job does not change which fires it runs.
 *
 * @param id {@link #idOf(String, long, long)}
 * @param inflight the current attempt of every submitted fire that has not ended yet (its retry
 *     once the lifecycle retries it)
 * @param cursorMs the last fire time submitted ({@code fromMs - 1} before the first)
 * @param rev how many steps were saved: the driver's step is saved only over the revision it read
 */
public record Backfill(
    String id,
    String jobId,
    String app,
    long fromMs,
    long toMs,
    int maxConcurrent,
    int total,
    int submitted,
    int succeeded,
    int failed,
    long cursorMs,
    List<TriggerId> inflight,
    BackfillState state,
    String message,
    long createdMs,
    long updatedMs,
    long finishedMs,
    long rev,
    ScheduleType scheduleType,
    String scheduleSpec,
    String zone,
    CronDialect cronDialect,
    long anchorMs) {

  public Backfill {
    Objects.requireNonNull(id, "id");
    inflight = List.copyOf(inflight);
    message = message == null ? "" : message;
  }

  /**
   * The backfill id of a job's range: {@code <jobId>@<fromMs>-<toMs>} (job ids never contain
   * {@code @}), so the same request names the same backfill.
   */
  public static String idOf(String jobId, long fromMs, long toMs) {
    return jobId + "@" + fromMs + "-" + toMs;
  }

  /** The fires this backfill runs. */
  public FireRange range() {
    Schedule schedule =
        Schedules.parse(scheduleType, scheduleSpec, Schedules.zone(zone), cronDialect, anchorMs);
    return new FireRange(schedule, fromMs, toMs);
  }

  /** Fires submitted that have not ended. */
  public int running() {
    return inflight.size();
  }

  // Field names of the hash.
  static final String ID = "id";
  static final String JOB_ID = "jobId";
  static final String APP = "app";
  static final String FROM = "fromMs";
  static final String TO = "toMs";
  static final String MAX_CONCURRENT = "maxConcurrent";
  static final String TOTAL = "total";
  static final String SUBMITTED = "submitted";
  static final String SUCCEEDED = "succeeded";
  static final String FAILED = "failed";
  static final String CURSOR = "cursorMs";
  static final String INFLIGHT = "inflight";
  static final String STATE = "state";
  static final String MESSAGE = "message";
  static final String CREATED = "createdMs";
  static final String UPDATED = "updatedMs";
  static final String FINISHED = "finishedMs";
  static final String REV = "rev";
  static final String SCHEDULE_TYPE = "scheduleType";
  static final String SCHEDULE_SPEC = "scheduleSpec";
  static final String ZONE = "zone";
  static final String CRON_DIALECT = "cronDialect";
  static final String ANCHOR = "anchorMs";

  /** Every field as stored. */
  Map<String, String> toHash() {
    Map<String, String> h = new LinkedHashMap<>();
    h.put(ID, id);
    h.put(JOB_ID, jobId);
    h.put(APP, app);
    h.put(FROM, Long.toString(fromMs));
    h.put(TO, Long.toString(toMs));
    h.put(MAX_CONCURRENT, Integer.toString(maxConcurrent));
    h.put(TOTAL, Integer.toString(total));
    h.put(SCHEDULE_TYPE, scheduleType.name());
    h.put(SCHEDULE_SPEC, scheduleSpec);
    h.put(ZONE, zone);
    h.put(CRON_DIALECT, cronDialect.name());
    h.put(ANCHOR, Long.toString(anchorMs));
    h.put(CREATED, Long.toString(createdMs));
    h.put(STATE, state.name());
    h.put(REV, Long.toString(rev));
    h.putAll(progress());
    return h;
  }

  /** The fields a driver step changes. */
  Map<String, String> progress() {
    Map<String, String> h = new LinkedHashMap<>();
    h.put(SUBMITTED, Integer.toString(submitted));
    h.put(SUCCEEDED, Integer.toString(succeeded));
    h.put(FAILED, Integer.toString(failed));
    h.put(CURSOR, Long.toString(cursorMs));
    h.put(INFLIGHT, String.join(",", inflight.stream().map(TriggerId::value).toList()));
    h.put(MESSAGE, message);
    return h;
  }

  static Backfill fromHash(Map<String, String> h) {
    List<TriggerId> inflight = new ArrayList<>();
    String list = h.getOrDefault(INFLIGHT, "");
    if (!list.isEmpty()) {
      for (String id : list.split(",")) {
        inflight.add(new TriggerId(id));
      }
    }
    return new Backfill(
        h.get(ID),
        h.get(JOB_ID),
        h.getOrDefault(APP, ""),
        num(h, FROM),
        num(h, TO),
        (int) num(h, MAX_CONCURRENT),
        (int) num(h, TOTAL),
        (int) num(h, SUBMITTED),
        (int) num(h, SUCCEEDED),
        (int) num(h, FAILED),
        num(h, CURSOR),
        inflight,
        BackfillState.valueOf(h.get(STATE)),
        h.get(MESSAGE),
        num(h, CREATED),
        num(h, UPDATED),
        num(h, FINISHED),
        num(h, REV),
        ScheduleType.valueOf(h.get(SCHEDULE_TYPE)),
        h.getOrDefault(SCHEDULE_SPEC, ""),
        h.get(ZONE),
        CronDialect.valueOf(h.getOrDefault(CRON_DIALECT, CronDialect.DEFAULT.name())),
        num(h, ANCHOR));
  }

  private static long num(Map<String, String> h, String field) {
    String v = h.get(field);
    return v == null || v.isEmpty() ? 0 : Long.parseLong(v);
  }

  /** This backfill after a driver step. */
  Backfill step(
      long cursorMs,
      List<TriggerId> inflight,
      int submitted,
      int succeeded,
      int failed,
      BackfillState state,
      String message) {
    return new Backfill(
        id,
        jobId,
        app,
        fromMs,
        toMs,
        maxConcurrent,
        total,
        submitted,
        succeeded,
        failed,
        cursorMs,
        inflight,
        state,
        message,
        createdMs,
        updatedMs,
        finishedMs,
        rev,
        scheduleType,
        scheduleSpec,
        zone,
        cronDialect,
        anchorMs);
  }
}
