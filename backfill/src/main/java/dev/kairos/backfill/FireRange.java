package dev.kairos.backfill;

import dev.kairos.core.schedule.Schedule;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The fires of a schedule in the closed range [{@code fromMs}, {@code toMs}], enumerated with
 * {@link Schedule#nextFireAfter(long)} exactly as the scanner would have fired them (cron in its
 * zone, so a DST gap skips and a DST overlap fires once, as the scanner does). Immutable.
 */
public record FireRange(Schedule schedule, long fromMs, long toMs) {

  public FireRange {
    Objects.requireNonNull(schedule, "schedule");
    if (fromMs > toMs) {
      throw new IllegalArgumentException("from " + fromMs + " is after to " + toMs);
    }
  }

  /** The first fire after {@code cursorMs} inside the range, or empty when none is left. */
  public OptionalLong nextAfter(long cursorMs) {
    long after = Math.max(cursorMs, fromMs - 1);
    OptionalLong next = schedule.nextFireAfter(after);
    return next.isPresent() && next.getAsLong() <= toMs ? next : OptionalLong.empty();
  }

  /** The cursor before the first fire: {@link #nextAfter} of it is the range's first fire. */
  public long start() {
    return fromMs - 1;
  }

  /**
   * The number of fires in the range, counting no further than {@code cap + 1}.
   *
   * @return the count, or {@code cap + 1} when the range holds more than {@code cap} fires
   */
  public int count(int cap) {
    int n = 0;
    long cursor = start();
    while (n <= cap) {
      OptionalLong next = nextAfter(cursor);
      if (next.isEmpty()) {
        break;
      }
      n++;
      cursor = next.getAsLong();
    }
    return n;
  }
}
