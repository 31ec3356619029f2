package dev.kairos.node.result;

import dev.kairos.core.model.TriggerId;
import dev.kairos.core.model.TriggerState;
import dev.kairos.core.time.KairosClock;
import dev.kairos.protocol.message.ResultMessage;
import dev.kairos.protocol.message.ResultStatus;
import dev.kairos.protocol.start.CompletionOutcome;
import dev.kairos.protocol.start.TriggerRecords;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Brings trigger records up to date from executors' results: the scheduler's safety net for the
 * completion the executor writes itself. For SUCCESS, FAIL, TIMEOUT, CANCELLED and DISCARDED it
 * runs the same {@code complete_trigger.lua} the executor ran, as that executor: when the
 * executor's write landed this is a read that answers ALREADY; when it did not (a Redis error on
 * the executor after the run) it completes the record; a final state is never regressed (a late
 * result lands in {@code lateResult}). DUPLICATE and EXPIRED are reports about a copy, counted but
 * written nowhere. A result that ended more than the dedup window ago is only counted: its record
 * has expired on purpose and must not be recreated. Thread-safe.
 */
final class ResultRecorder {

  private static final Logger log = LoggerFactory.getLogger(ResultRecorder.class);

  private final TriggerRecords records;
  private final KairosClock clock;
  private final long dedupWindowMs;
  private final ResultMeters meters;
  private final List<ResultListener> listeners;

  ResultRecorder(
      TriggerRecords records,
      KairosClock clock,
      Duration dedupWindow,
      ResultMeters meters,
      List<ResultListener> listeners) {
    this.records = records;
    this.clock = clock;
    this.dedupWindowMs = dedupWindow.toMillis();
    this.meters = meters;
    this.listeners = List.copyOf(listeners);
  }

  /**
   * Records a batch: all of its completions in flight together (one pipelined script each), then
   * waits for them.
   *
   * @throws RuntimeException when a record could not be written; the whole batch is then
   *     redelivered, which is safe because completion is idempotent
   */
  void record(List<ResultMessage> batch, Duration timeout) throws InterruptedException {
    long now = clock.nowMs();
    List<ResultMessage> writing = new ArrayList<>(batch.size());
    List<CompletableFuture<CompletionOutcome>> calls = new ArrayList<>(batch.size());
    for (ResultMessage result : batch) {
      meters.status(result.status());
      meters.lag.record(Math.max(0, now - result.endedMs()), TimeUnit.MILLISECONDS);
      if (result.startedMs() > 0 && result.endedMs() >= result.startedMs()) {
        meters.runDuration.record(result.endedMs() - result.startedMs(), TimeUnit.MILLISECONDS);
      }
      TriggerState state = finalState(result.status());
      if (state == null) {
        notifyListeners(result, null);
      } else if (now - result.endedMs() > dedupWindowMs) {
        meters.stale.increment();
        notifyListeners(result, null);
      } else {
        writing.add(result);
        calls.add(
            records
                .completeAsync(
                    result.triggerId(),
                    result.jobId(),
                    new TriggerId(result.triggerId()).fireMs(),
                    result.executorId(),
                    state,
                    result.message())
                .toCompletableFuture());
      }
    }
    try {
      CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("completing " + calls.size() + " trigger records failed", e);
    }
    for (int i = 0; i < writing.size(); i++) {
      ResultMessage result = writing.get(i);
      CompletionOutcome outcome = calls.get(i).join();
      meters.outcome(outcome.kind());
      if (outcome.kind() == CompletionOutcome.Kind.COMPLETED
          || outcome.kind() == CompletionOutcome.Kind.RECREATED
          || outcome.kind() == CompletionOutcome.Kind.NOT_STARTED) {
        logRepair(result, outcome);
      }
      notifyListeners(result, outcome);
    }
  }

  /** The record state a reported status ends in, or null for reports about a copy. */
  static TriggerState finalState(ResultStatus status) {
    return switch (status) {
      case SUCCESS -> TriggerState.SUCCESS;
      case FAIL -> TriggerState.FAIL;
      case TIMEOUT -> TriggerState.TIMEOUT;
      case CANCELLED -> TriggerState.CANCELLED;
      case DISCARDED -> TriggerState.DISCARDED;
      case DUPLICATE, EXPIRED -> null;
    };
  }

  private void logRepair(ResultMessage result, CompletionOutcome outcome) {
    MDC.put("jobId", result.jobId());
    MDC.put("triggerId", result.triggerId());
    try {
      if (outcome.kind() == CompletionOutcome.Kind.NOT_STARTED) {
        log.warn(
            "result {} of trigger {} from executor {} found the record {}: its start claim is"
                + " missing (lost in a Redis failover?); the record is left as it is",
            result.status(),
            result.triggerId(),
            result.executorId(),
            outcome.stateFound());
      } else {
        log.info(
            "trigger {} completed {} from the result of executor {} (the record was {}): the"
                + " executor's own write had not landed",
            result.triggerId(),
            result.status(),
            result.executorId(),
            outcome.stateFound().isEmpty() ? "missing" : outcome.stateFound());
      }
    } finally {
      MDC.remove("jobId");
      MDC.remove("triggerId");
    }
  }

  private void notifyListeners(ResultMessage result, CompletionOutcome outcome) {
    for (ResultListener listener : listeners) {
      try {
        listener.onResult(result, outcome);
      } catch (RuntimeException e) {
        log.warn("result listener {} failed on {}", listener, result.triggerId(), e);
      }
    }
  }
}
