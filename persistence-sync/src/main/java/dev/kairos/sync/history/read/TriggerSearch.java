package dev.kairos.sync.history.read;

import java.util.List;

/**
 * What a trigger search asks for; every criterion is optional (null or empty: not filtered) and
 * they combine with AND.
 *
 * @param app the job's executor app (exact)
 * @param jobId one job (exact)
 * @param states any of these states
 * @param fromMs scheduled fire time at or after (epoch ms)
 * @param toMs scheduled fire time before (epoch ms)
 * @param text contained in the result message or a late result message, case-insensitive
 */
public record TriggerSearch(
    String app, String jobId, List<String> states, Long fromMs, Long toMs, String text) {

  public TriggerSearch {
    states = states == null ? List.of() : List.copyOf(states);
  }
}
