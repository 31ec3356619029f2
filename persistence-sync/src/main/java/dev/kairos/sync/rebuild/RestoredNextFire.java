package dev.kairos.sync.rebuild;

import dev.kairos.core.model.MisfireStrategy;
import dev.kairos.core.model.ScheduleType;
import dev.kairos.core.redis.JobFields;
import dev.kairos.core.schedule.CronDialect;
import dev.kairos.core.schedule.FixedDelaySchedule;
import dev.kairos.core.schedule.OneShotSchedule;
import dev.kairos.core.schedule.Schedule;
import dev.kairos.core.schedule.Schedules;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The next fire of a job restored at {@code now}, from what PostgreSQL knows (its last claimed
 * fire). The fire it was owed next is the first one after its last fire; if that is older than the
 * misfire threshold, the job's misfire strategy applies as the scanner would apply it: DO_NOTHING
 * skips to the first fire after now, FIRE_ONCE_NOW fires once at now. A FIXED_DELAY job (its parked
 * state is not in PostgreSQL) is re-armed one interval from now; a one-shot that already fired, API
 * jobs and disabled jobs are not scheduled.
 */
public final class RestoredNextFire {

  private RestoredNextFire() {}

  public static OptionalLong compute(Map<String, String> hash, Long lastFireMs, long nowMs) {
    if (!"true".equals(hash.get(JobFields.ENABLED))) {
      return OptionalLong.empty();
    }
    ScheduleType type = ScheduleType.valueOf(hash.get(JobFields.SCHEDULE_TYPE));
    long created = Long.parseLong(hash.get(JobFields.CREATED_MS));
    String dialect = hash.get(JobFields.CRON_DIALECT);
    Schedule schedule =
        Schedules.parse(
            type,
            hash.get(JobFields.SCHEDULE),
            Schedules.zone(hash.get(JobFields.ZONE)),
            dialect == null ? CronDialect.DEFAULT : CronDialect.valueOf(dialect),
            created);
    if (type == ScheduleType.API) {
      return OptionalLong.empty();
    }
    if (schedule instanceof FixedDelaySchedule delay) {
      return OptionalLong.of(delay.nextFireAfterEnd(nowMs));
    }
    OptionalLong owed;
    if (schedule instanceof OneShotSchedule oneShot) {
      if (lastFireMs != null && lastFireMs >= oneShot.atMs()) {
        return OptionalLong.empty();
      }
      owed = OptionalLong.of(oneShot.atMs());
    } else {
      owed =
          lastFireMs == null
              ? Schedules.firstFire(schedule, created) // as JobStore armed it at creation
              : schedule.nextFireAfter(lastFireMs);
    }
    if (owed.isEmpty()) {
      return owed;
    }
    long threshold = Long.parseLong(hash.getOrDefault(JobFields.MISFIRE_THRESHOLD_MS, "0"));
    if (owed.getAsLong() >= nowMs - threshold) {
      return owed;
    }
    if (MisfireStrategy.valueOf(hash.get(JobFields.MISFIRE)) == MisfireStrategy.FIRE_ONCE_NOW) {
      return OptionalLong.of(nowMs);
    }
    return schedule instanceof OneShotSchedule
        ? OptionalLong.empty()
        : schedule.nextFireAfter(nowMs);
  }
}
