package dev.kairos.drills.bench;

import dev.kairos.drills.StartLedger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * How a row's expected fires started: the lateness of each first start, how many started before
 * their time, and the stages of each from its trigger's timestamps — how far ahead of its fire time
 * the broker's ack was recorded ({@code dispatchedMs}; the node sends a trigger its pre-dispatch
 * lead ahead, so this is about the lead; negative, counted as 0, when it was sent late), scheduled
 * fire → the executor's start claim ({@code startedMs}), claim → the handler's first line (start
 * log).
 */
record StartStats(
    Dist lateness, long early, Dist ackBeforeFire, Dist fireToClaim, Dist claimToHandler) {

  /**
   * From a drained outcome, the start logs as read after it, and {@code timestamps}: each trigger's
   * {@code dispatchedMs} and {@code startedMs} (either may be null).
   */
  static StartStats of(
      Function<Collection<String>, Map<String, Long[]>> timestamps,
      StartLedger.Outcome outcome,
      Map<String, List<StartLedger.Start>> logged) {
    List<Long> lateness = new ArrayList<>();
    long early = 0;
    for (Map.Entry<String, Long> e : outcome.firstStartMs().entrySet()) {
      long late = e.getValue() - fireMs(e.getKey());
      lateness.add(late);
      if (late < 0) {
        early++;
      }
    }
    Map<String, Long[]> records = timestamps.apply(outcome.firstStartMs().keySet());
    List<Long> ackBeforeFire = new ArrayList<>();
    List<Long> fireToClaim = new ArrayList<>();
    List<Long> claimToHandler = new ArrayList<>();
    records.forEach(
        (trigger, r) -> {
          Long dispatched = r[0];
          Long started = r[1];
          if (dispatched != null) {
            ackBeforeFire.add(fireMs(trigger) - dispatched);
          }
          if (started != null) {
            fireToClaim.add(started - fireMs(trigger));
          }
          List<StartLedger.Start> starts = logged.get(trigger);
          if (started != null && starts != null) {
            long handler =
                starts.stream().mapToLong(StartLedger.Start::startMs).min().orElseThrow();
            claimToHandler.add(handler - started);
          }
        });
    return new StartStats(
        Dist.of(lateness),
        early,
        Dist.of(ackBeforeFire),
        Dist.of(fireToClaim),
        Dist.of(claimToHandler));
  }

  /** Handler starts logged in {@code [fromMs, toMs)}, of any fire: the work a window's CPU paid. */
  static long startsBetween(Map<String, List<StartLedger.Start>> logged, long fromMs, long toMs) {
    return logged.values().stream()
        .flatMap(List::stream)
        .filter(s -> s.startMs() >= fromMs && s.startMs() < toMs)
        .count();
  }

  static long fireMs(String triggerId) {
    return Long.parseLong(triggerId.substring(triggerId.lastIndexOf(':') + 1));
  }
}
