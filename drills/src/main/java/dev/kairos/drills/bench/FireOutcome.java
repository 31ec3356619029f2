package dev.kairos.drills.bench;

import dev.kairos.drills.StartLedger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a set of expected fires started, from the start logs and, for fires with no logged start, the
 * start claim in their trigger record (an executor that claimed but had not written its line: it
 * started). Missed: no start at all; duplicate: logged more than once; early: the first start before
 * the fire time (this machine's clock, which every executor reads).
 *
 * @param firstStartMs first start of every fire that started
 */
record FireOutcome(
    int expected,
    int started,
    int missed,
    int duplicates,
    int early,
    Dist lateness,
    Map<String, Long> firstStartMs) {

  static final FireOutcome NONE = new FireOutcome(0, 0, 0, 0, 0, Dist.EMPTY, Map.of());

  /**
   * @param logged starts logged for (at least) the expected trigger ids
   * @param claimedStartMs the record's {@code startedMs} of expected fires not logged
   */
  static FireOutcome of(
      Collection<String> expected,
      Map<String, List<StartLedger.Start>> logged,
      Map<String, Long> claimedStartMs) {
    Map<String, Long> first = new LinkedHashMap<>();
    int duplicates = 0;
    int early = 0;
    List<Long> lateness = new ArrayList<>();
    for (String id : expected) {
      List<StartLedger.Start> starts = logged.get(id);
      Long start =
          starts != null
              ? starts.stream().mapToLong(StartLedger.Start::startMs).min().orElseThrow()
              : claimedStartMs.get(id);
      if (start == null) {
        continue;
      }
      if (starts != null && starts.size() > 1) {
        duplicates++;
      }
      long late = start - fireMs(id);
      if (late < 0) {
        early++;
      }
      first.put(id, start);
      lateness.add(late);
    }
    return new FireOutcome(
        expected.size(),
        first.size(),
        expected.size() - first.size(),
        duplicates,
        early,
        Dist.of(lateness),
        first);
  }

  /** The trigger ids among {@code expected} with no logged start. */
  static List<String> notLogged(
      Collection<String> expected, Map<String, List<StartLedger.Start>> logged) {
    return expected.stream().filter(id -> !logged.containsKey(id)).toList();
  }

  /** The scheduled fire time of trigger id {@code <job>:<fireMs>}. */
  static long fireMs(String triggerId) {
    return Long.parseLong(triggerId.substring(triggerId.lastIndexOf(':') + 1));
  }

  /** The outcome of {@code subset}, fires among this outcome's expected ones. */
  FireOutcome only(Collection<String> subset, Map<String, List<StartLedger.Start>> logged) {
    Map<String, Long> claimed = new LinkedHashMap<>();
    for (String id : subset) {
      Long start = firstStartMs.get(id);
      if (start != null && !logged.containsKey(id)) {
        claimed.put(id, start);
      }
    }
    return of(subset, logged, claimed);
  }
}
