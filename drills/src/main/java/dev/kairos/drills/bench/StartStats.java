package dev.kairos.drills.bench;

import dev.kairos.drills.StartLedger;
import dev.kairos.protocol.record.TriggerFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How a row's expected fires started: the lateness of each first start, how many started before
 * their time, and the stages of each from its trigger record — scheduled fire → broker ack ({@code
 * dispatchedMs}), ack → the executor's start claim ({@code startedMs}), claim → the handler's first
 * line (start log).
 */
record StartStats(Dist lateness, long early, Dist fireToAck, Dist ackToClaim, Dist claimToHandler) {

  /** From a drained outcome, the start logs as read after it, and the trigger records. */
  static StartStats of(
      StartLedger ledger,
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
    Map<String, Long[]> records =
        ledger.timestamps(
            outcome.firstStartMs().keySet(), TriggerFields.DISPATCHED_MS, TriggerFields.STARTED_MS);
    List<Long> fireToAck = new ArrayList<>();
    List<Long> ackToClaim = new ArrayList<>();
    List<Long> claimToHandler = new ArrayList<>();
    records.forEach(
        (trigger, r) -> {
          Long dispatched = r[0];
          Long started = r[1];
          if (dispatched != null) {
            fireToAck.add(dispatched - fireMs(trigger));
          }
          if (dispatched != null && started != null) {
            ackToClaim.add(started - dispatched);
          }
          List<StartLedger.Start> starts = logged.get(trigger);
          if (started != null && starts != null) {
            long handler =
                starts.stream().mapToLong(StartLedger.Start::startMs).min().orElseThrow();
            claimToHandler.add(handler - started);
          }
        });
    return new StartStats(
        Dist.of(lateness), early, Dist.of(fireToAck), Dist.of(ackToClaim), Dist.of(claimToHandler));
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
