package dev.kairos.drills.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The fires due at one instant (one M1 minute, the MIDNIGHT second) and how they started.
 *
 * @param fireMs the scheduled instant
 * @param expected fires due then, computed from the schedules
 * @param started of those, fires with a start (start log or start claim)
 * @param lateness first start − fireMs of the started ones
 * @param allStartedAfterMs the last first start − fireMs: how long until every fire of the burst
 *     had started; -1 when some never did
 */
record Burst(long fireMs, int expected, int started, Dist lateness, long allStartedAfterMs) {

  /**
   * The bursts of {@code expected} trigger ids ({@code <job>:<fireMs>}), one per fire time in
   * ascending order, from the first start of each fire that started.
   */
  static List<Burst> of(Collection<String> expected, Map<String, Long> firstStartMs) {
    Map<Long, List<String>> byFire = new TreeMap<>();
    for (String id : expected) {
      byFire.computeIfAbsent(fireMs(id), k -> new ArrayList<>()).add(id);
    }
    List<Burst> bursts = new ArrayList<>();
    byFire.forEach(
        (fire, ids) -> {
          List<Long> lateness = new ArrayList<>();
          long last = Long.MIN_VALUE;
          for (String id : ids) {
            Long start = firstStartMs.get(id);
            if (start != null) {
              lateness.add(start - fire);
              last = Math.max(last, start);
            }
          }
          boolean all = lateness.size() == ids.size();
          bursts.add(
              new Burst(
                  fire, ids.size(), lateness.size(), Dist.of(lateness), all ? last - fire : -1));
        });
    return bursts;
  }

  int missed() {
    return expected - started;
  }

  /** "1,234" ms, or "– (k missed)" when the burst never completed. */
  String allStartedAfter() {
    return allStartedAfterMs < 0
        ? "– (" + String.format(Locale.ROOT, "%,d", missed()) + " missed)"
        : String.format(Locale.ROOT, "%,d", allStartedAfterMs);
  }

  static String header() {
    return "| workload | jobs | burst at (UTC) | expected | started | missed | p50 ms | p99 | max "
        + "| all started after ms |\n"
        + "|---|---|---|---|---|---|---|---|---|---|";
  }

  String line(Workload workload, int jobs) {
    return String.format(
        Locale.ROOT,
        "| %s | %,d | %s | %,d | %,d | %,d | %,d | %,d | %,d | %s |",
        workload,
        jobs,
        Instant.ofEpochMilli(fireMs),
        expected,
        started,
        missed(),
        lateness.p50(),
        lateness.p99(),
        lateness.max(),
        allStartedAfter());
  }

  private static long fireMs(String triggerId) {
    return Long.parseLong(triggerId.substring(triggerId.lastIndexOf(':') + 1));
  }
}
