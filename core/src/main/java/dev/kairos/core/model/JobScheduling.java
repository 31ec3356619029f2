package dev.kairos.core.model;

import dev.kairos.core.redis.JobFields;
import dev.kairos.core.schedule.CronDialect;
import dev.kairos.core.schedule.Schedule;
import dev.kairos.core.schedule.Schedules;
import java.util.List;
import java.util.Map;

/**
 * The part of a job the leader's scan needs to plan its fires: its schedule, misfire settings,
 * whether it is enabled and the schedule version its claims are fenced by. The scan reads only
 * these fields ({@link #FIELDS}) of each due job instead of the whole hash, because it reads one
 * job per fire and the rest of the hash (handler, params, routing, alarms, ...) is dispatch's
 * business, read by {@code take_due.lua} at fire time. {@link #calendars()} rides in the same read,
 * so a job without calendars costs nothing more.
 */
public record JobScheduling(
    String id,
    ScheduleType scheduleType,
    String scheduleSpec,
    String zone,
    CronDialect cronDialect,
    MisfireStrategy misfireStrategy,
    long misfireThresholdMs,
    boolean enabled,
    long scheduleVersion,
    long createdMs,
    List<String> calendars) {

  public JobScheduling {
    calendars = calendars == null ? List.of() : List.copyOf(calendars);
  }

  /** The hash fields read, in the order {@link #fromValues} expects them. */
  public static final List<String> FIELDS =
      List.of(
          JobFields.ID,
          JobFields.SCHEDULE_TYPE,
          JobFields.SCHEDULE,
          JobFields.ZONE,
          JobFields.CRON_DIALECT,
          JobFields.MISFIRE,
          JobFields.MISFIRE_THRESHOLD_MS,
          JobFields.ENABLED,
          JobFields.SCHEDULE_VERSION,
          JobFields.CREATED_MS,
          JobFields.CALENDARS);

  /** The parsed schedule; callers cache it per {@link #scheduleVersion()}. */
  public Schedule schedule() {
    return Schedules.parse(
        scheduleType, scheduleSpec, Schedules.zone(zone), cronDialect, createdMs);
  }

  /**
   * Reads the fields of {@link #FIELDS}, the ones a hash lacks mapped to nothing (a job read as
   * {@code HMGET}); a hash with none of them is a deleted job and reads as null.
   *
   * @throws dev.kairos.core.error.KairosException naming the job and field when one is missing or
   *     malformed (the cron dialect may be missing: older hashes read as the default)
   */
  public static JobScheduling fromHash(Map<String, String> hash) {
    if (hash.isEmpty()) {
      return null;
    }
    return JobHash.schedulingFromHash(hash);
  }
}
