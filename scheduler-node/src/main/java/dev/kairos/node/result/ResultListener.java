package dev.kairos.node.result;

import dev.kairos.protocol.message.ResultMessage;
import dev.kairos.protocol.start.CompletionOutcome;

/**
 * Told of every result a node's result consumer handled, after the trigger record was brought up to
 * date: the hook for what reacts to a run's end (retries, alarms, child jobs). Called on a consumer
 * thread; must not block for long. Spring beans of this type are picked up.
 */
@FunctionalInterface
public interface ResultListener {

  /**
   * @param result the executor's report
   * @param outcome what {@code complete_trigger} did with it; null for reports that change no
   *     record (DUPLICATE, EXPIRED) and for results older than the dedup window
   */
  void onResult(ResultMessage result, CompletionOutcome outcome);
}
