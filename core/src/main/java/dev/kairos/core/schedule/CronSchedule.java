package dev.kairos.core.schedule;

import dev.kairos.core.model.ScheduleType;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A cron expression of a {@link CronDialect} (see {@link CronExpression} and {@link
 * QuartzCronParser} for the syntax) evaluated in an IANA time zone, to whole seconds.
 *
 * <p><b>Daylight saving time.</b> The expression is matched against local wall-clock time, then
 * mapped to an instant:
 *
 * <ul>
 *   <li><b>Gap</b> (spring forward; the local time does not exist): the fire happens once, at the
 *       first instant after the gap. In New York on 2025-03-09 a 02:30 job fires at 03:00 EDT; a
 *       job matching several times inside the gap (every 15 minutes) fires once at 03:00.
 *   <li><b>Overlap</b> (fall back; the local time happens twice): the fire happens once, at the
 *       first (earlier-offset, summer-time) occurrence. This holds for every field, including
 *       steps: <code>0 *&#47;15 * * * *</code> fires at 01:00, 01:15, 01:30, 01:45 EDT in New York
 *       on 2025-11-02 and then not again until 02:00 EST, an hour and a quarter later.
 * </ul>
 *
 * <p>The search looks at most {@value #SEARCH_YEARS} years ahead (long enough for February 29
 * across a skipped leap year such as 2100), so an impossible expression such as February 30 returns
 * empty instead of looping. Day 31 simply skips shorter months. A {@link CronDialect#QUARTZ} cron
 * looks {@value #QUARTZ_SEARCH_YEARS} years ahead, as Quartz does (a fifth Saturday of February
 * comes once in 28 years), or to the last year of its year field.
 */
public final class CronSchedule implements Schedule {

  static final int SEARCH_YEARS = 10;
  static final int QUARTZ_SEARCH_YEARS = 100;

  // Instants past the year 9999 are not schedules anyone means; they also keep arithmetic safe.
  private static final long MAX_EPOCH_MS = 253_402_300_799_000L;

  private final CronExpression expression;
  private final CronDialect dialect;
  private final ZoneId zone;
  private final ZoneRules rules;

  private CronSchedule(CronExpression expression, CronDialect dialect, ZoneId zone) {
    this.expression = expression;
    this.dialect = dialect;
    this.zone = zone;
    this.rules = zone.getRules();
  }

  /**
   * Parses a cron of the default dialect, {@link CronDialect#KAIROS}.
   *
   * @throws InvalidScheduleException naming the field and the offending part
   */
  public static CronSchedule parse(String expression, ZoneId zone) {
    return parse(expression, zone, CronDialect.DEFAULT);
  }

  /**
   * @throws InvalidScheduleException naming the field and the offending part
   */
  public static CronSchedule parse(String expression, ZoneId zone, CronDialect dialect) {
    Objects.requireNonNull(zone, "zone");
    Objects.requireNonNull(dialect, "dialect");
    return new CronSchedule(CronExpression.parse(expression, dialect), dialect, zone);
  }

  public CronDialect dialect() {
    return dialect;
  }

  public String expression() {
    return expression.text();
  }

  public ZoneId zone() {
    return zone;
  }

  @Override
  public OptionalLong nextFireAfter(long epochMs) {
    if (epochMs >= MAX_EPOCH_MS) {
      return OptionalLong.empty();
    }
    // Fires are whole seconds; the first candidate is the next whole second after epochMs.
    Instant start = Instant.ofEpochSecond(Math.floorDiv(epochMs, 1000) + 1);
    LocalDateTime from = LocalDateTime.ofInstant(start, zone);
    ZoneOffsetTransition startsAt = rules.nextTransition(start.minusSeconds(1));
    if (startsAt != null && startsAt.isGap() && startsAt.getInstant().equals(start)) {
      // The start is the instant a gap ends: matches inside the gap fire exactly now.
      from = startsAt.getDateTimeBefore();
    }
    int horizon = dialect == CronDialect.QUARTZ ? QUARTZ_SEARCH_YEARS : SEARCH_YEARS;
    int lastYear = expression.lastSearchYear(from.getYear(), horizon);
    while (true) {
      Optional<LocalDateTime> match = expression.nextMatch(from, lastYear);
      if (match.isEmpty()) {
        return OptionalLong.empty();
      }
      LocalDateTime local = match.get();
      ZoneOffsetTransition transition = rules.getTransition(local);
      long fireSecond;
      if (transition == null) {
        fireSecond = local.toEpochSecond(rules.getOffset(local));
      } else if (transition.isGap()) {
        fireSecond = transition.toEpochSecond();
      } else {
        fireSecond = local.toEpochSecond(transition.getOffsetBefore());
      }
      if (fireSecond * 1000 > epochMs) {
        return OptionalLong.of(fireSecond * 1000);
      }
      // Only in the second pass through an overlap: its local times already fired in the first
      // pass, so continue from the end of the overlap.
      from = transition.getDateTimeBefore();
    }
  }

  @Override
  public ScheduleType type() {
    return ScheduleType.CRON;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CronSchedule other
        && expression.text().equals(other.expression.text())
        && dialect == other.dialect
        && zone.equals(other.zone);
  }

  @Override
  public int hashCode() {
    return Objects.hash(expression.text(), dialect, zone);
  }

  @Override
  public String toString() {
    return "CronSchedule[" + expression.text() + " " + dialect + " " + zone + "]";
  }
}
