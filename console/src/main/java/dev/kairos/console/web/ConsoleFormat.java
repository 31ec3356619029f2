package dev.kairos.console.web;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Formatting the templates call as {@code ${@consoleFormat.time(ms)}}: times in UTC with
 * milliseconds (a scheduler's lateness is read in ms), durations in ms or s.
 */
public final class ConsoleFormat {

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  /** Epoch ms (a number from the API's JSON) as UTC time; "—" when absent or 0. */
  public String time(Object epochMs) {
    if (!(epochMs instanceof Number n) || n.longValue() <= 0) {
      return "—";
    }
    return TIME.format(Instant.ofEpochMilli(n.longValue()));
  }

  /** Milliseconds as "850 ms" or "12.3 s"; "—" when absent. */
  public String duration(Object ms) {
    if (!(ms instanceof Number n)) {
      return "—";
    }
    long v = n.longValue();
    return v < 10_000 ? v + " ms" : String.format("%.1f s", v / 1000.0);
  }

  /** A sampled value with one decimal; "—" for NaN (nothing measured yet). */
  public String number(double value) {
    return Double.isNaN(value) ? "—" : String.format("%.1f", value);
  }

  /** Milliseconds with one decimal and the unit, or "—" when unknown (NaN). */
  public String millis(double value) {
    return Double.isNaN(value) ? "—" : String.format("%.1f ms", value);
  }
}
