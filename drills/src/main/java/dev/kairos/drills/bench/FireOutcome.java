package dev.kairos.drills.bench;

import dev.kairos.drills.StartLedger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A {@link StartLedger.Outcome} counted for a table row, over all its fires or a subset of them
 * (the top-of-minute burst among a minute's fires): the ledger already joins the start logs with
 * the start claims of fires that have no logged line, so a fire it lists as started did start.
 * Missed: no start at all; duplicate: logged more than once; early: the first start before the fire
 * time (this machine's clock, which every executor reads).
 */
record FireOutcome(
    int expected, int started, int missed, int duplicates, int early, Dist lateness) {

  static final FireOutcome NONE = new FireOutcome(0, 0, 0, 0, 0, Dist.EMPTY);

  /** Every fire of {@code outcome}. */
  static FireOutcome of(StartLedger.Outcome outcome) {
    return count(outcome.expected(), outcome, outcome.firstStartMs().keySet());
  }

  /** The fires {@code subset} of {@code outcome}, each one of its expected fires. */
  static FireOutcome of(StartLedger.Outcome outcome, Collection<String> subset) {
    return count(subset.size(), outcome, subset);
  }

  private static FireOutcome count(
      int expected, StartLedger.Outcome outcome, Collection<String> ids) {
    int started = 0;
    int duplicates = 0;
    int early = 0;
    List<Long> lateness = new ArrayList<>();
    for (String id : ids) {
      Long first = outcome.firstStartMs().get(id);
      if (first == null) {
        continue;
      }
      started++;
      if (outcome.duplicates().containsKey(id)) {
        duplicates++;
      }
      long late = first - fireMs(id);
      if (late < 0) {
        early++;
      }
      lateness.add(late);
    }
    return new FireOutcome(
        expected, started, expected - started, duplicates, early, Dist.of(lateness));
  }

  /** The scheduled fire time of trigger id {@code <job>:<fireMs>}. */
  static long fireMs(String triggerId) {
    return Long.parseLong(triggerId.substring(triggerId.lastIndexOf(':') + 1));
  }
}
