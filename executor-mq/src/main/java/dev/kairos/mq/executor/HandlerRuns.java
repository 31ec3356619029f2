package dev.kairos.mq.executor;

import dev.kairos.core.lifecycle.Lifecycle;
import dev.kairos.core.secret.SecretParamsCipher;
import dev.kairos.core.secret.SecretParamsException;
import dev.kairos.mq.executor.ExecutorCounters.Outcome;
import dev.kairos.mq.log.TriggerLogShipper;
import dev.kairos.protocol.message.ResultStatus;
import dev.kairos.protocol.message.TriggerMessage;
import dev.kairos.protocol.start.StartOutcome;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs handlers: applies each job's block strategy ({@link JobRunners}), claims the start on a
 * worker thread as the handler is about to run ({@link StartClaimer}), enforces the timeout,
 * interrupts a run an operator cancelled, and hands the end to {@link RunEnds}. Thread-safe:
 * deliveries come from the hold's ticker (or the poll thread), runs execute on the workers.
 */
final class HandlerRuns {

  private static final Logger log = LoggerFactory.getLogger(HandlerRuns.class);

  private final ExecutorService workers;
  private final ScheduledExecutorService timers;
  private final int workerThreads;
  private final StartClaimer claimer;
  private final RunEnds ends;
  private final ExecutorCounters counters;
  private final Lifecycle lifecycle;
  private final TriggerLogShipper logs; // null when log shipping is off
  private final SecretParamsCipher secretParams;
  private final JobRunners runners = new JobRunners(this::launch, this::discardLater);
  private final AtomicInteger activeRuns = new AtomicInteger();

  /** Runs that started on this instance and have not ended, by trigger id (for cancels). */
  private final Map<String, Run> running = new ConcurrentHashMap<>();

  HandlerRuns(
      ExecutorService workers,
      ScheduledExecutorService timers,
      int workerThreads,
      StartClaimer claimer,
      RunEnds ends,
      ExecutorCounters counters,
      Lifecycle lifecycle,
      TriggerLogShipper logs,
      SecretParamsCipher secretParams) {
    this.workers = workers;
    this.timers = timers;
    this.workerThreads = workerThreads;
    this.claimer = claimer;
    this.ends = ends;
    this.counters = counters;
    this.lifecycle = lifecycle;
    this.logs = logs;
    this.secretParams = secretParams;
  }

  /** A delivery whose fire time has come: its job's block strategy decides when it runs. */
  void submit(Delivery delivery) {
    runners.submit(delivery);
  }

  int active() {
    return activeRuns.get();
  }

  /** Called by the cancel watcher for every recent request of the app; idempotent. */
  void cancel(String triggerId) {
    Run run = running.get(triggerId);
    if (run != null && run.cancel()) {
      log.info("trigger {} cancelled by an operator: interrupting its handler", triggerId);
    }
  }

  /**
   * Hands a run to the worker pool. During shutdown the pool refuses new work: the delivery then
   * stays uncommitted, so the slot's next owner (or this instance after a restart) receives it.
   */
  private void launch(Run run) {
    try {
      workers.execute(() -> execute(run));
    } catch (RejectedExecutionException e) {
      log.info("not starting {}: the executor is stopping", run.delivery.trigger().triggerId());
    }
  }

  private void discardLater(Delivery delivery) {
    try {
      workers.execute(() -> discardNow(delivery));
    } catch (RejectedExecutionException e) {
      log.info("not judging {}: the executor is stopping", delivery.trigger().triggerId());
    }
  }

  private void discardNow(Delivery delivery) {
    StartOutcome outcome = claimer.claim(delivery);
    if (outcome == null || !outcome.started()) {
      return;
    }
    TriggerMessage t = delivery.trigger();
    String why = "discarded: job " + t.jobId() + " is already running (DISCARD_LATER)";
    counters.count(t.handler(), Outcome.DISCARDED);
    ends.end(t, delivery.tenure().lease.slot(), ResultStatus.DISCARDED, outcome.startedMs(), why);
  }

  /** Runs on a worker thread. */
  private void execute(Run run) {
    TriggerMessage t = run.delivery.trigger();
    try {
      run.begin();
      StartOutcome outcome = claimer.claim(run.delivery);
      if (outcome == null || !outcome.started()) {
        return;
      }
      if (run.covers != null) {
        run.covers.interrupt(false);
      }
      running.put(t.triggerId(), run);
      var lease = run.delivery.tenure().lease;
      lease.setBusy(activeRuns.incrementAndGet() >= workerThreads);
      ScheduledFuture<?> timer =
          t.timeoutMs() > 0
              ? timers.schedule(() -> run.interrupt(true), t.timeoutMs(), TimeUnit.MILLISECONDS)
              : null;
      ResultStatus status;
      String message = "";
      String params = t.params();
      SecretParamsException unopened = null;
      try {
        params = secretParams.open(t.jobId(), t.params());
      } catch (SecretParamsException e) {
        unopened = e; // the run fails with it, the handler is not called with sealed params
      }
      JobContext context =
          logs == null ? JobContext.of(t, params) : JobContext.shipped(t, params, logs);
      try {
        context.log().bind();
        if (unopened != null) {
          throw unopened;
        }
        run.delivery.handler().execute(context);
        status = ResultStatus.SUCCESS;
      } catch (Exception | LinkageError | AssertionError e) {
        status = ResultStatus.FAIL;
        message = e.toString();
        if (e instanceof InterruptedException && !lifecycle.isStarted()) {
          message = "interrupted: the executor is shutting down; " + message;
        }
      } finally {
        JobLog.unbind();
        if (timer != null) {
          timer.cancel(false);
        }
        run.end();
        running.remove(t.triggerId(), run);
        lease.setBusy(activeRuns.decrementAndGet() >= workerThreads);
      }
      if (run.timedOut()) {
        status = ResultStatus.TIMEOUT;
        message = "timed out after " + t.timeoutMs() + " ms; " + message;
      } else if (run.covered()) {
        status = ResultStatus.DISCARDED;
        message = "covered by a newer run (COVER_EARLY); " + message;
      } else if (run.cancelled()) {
        if (status == ResultStatus.FAIL) {
          // The handler ended by throwing after the interrupt: the cancel took effect.
          status = ResultStatus.CANCELLED;
          counters.cancelled.increment();
          message = "cancelled by an operator; " + message;
        } else {
          message = "cancel requested, but the handler finished anyway; " + message;
        }
      }
      counters.count(
          t.handler(),
          switch (status) {
            case SUCCESS -> Outcome.SUCCEEDED;
            case TIMEOUT -> Outcome.TIMED_OUT;
            case DISCARDED -> Outcome.DISCARDED;
            case CANCELLED -> Outcome.CANCELLED;
            default -> Outcome.FAILED;
          });
      if (logs != null) {
        // Safety: issued before the completion, on the same connection and hash slot, so a reader
        // that sees the trigger final also sees its last lines.
        ends.track(logs.finish(context.log().shipped()));
      }
      String logText = context.log().text();
      if (!logText.isEmpty()) {
        message = message.isEmpty() ? logText : message + "\n" + logText;
      }
      ends.end(t, lease.slot(), status, outcome.startedMs(), message);
    } catch (RuntimeException e) {
      counters.errors.increment();
      log.warn("running trigger {} failed outside the handler", t.triggerId(), e);
    } finally {
      run.end();
      runners.finished(run);
    }
  }

  /**
   * Lets running handlers finish within {@code grace}, then interrupts them and waits a little more
   * so their results are still recorded and published (the producer and lease are still up).
   */
  void stop(Duration grace) {
    workers.shutdown();
    try {
      if (workers.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        return;
      }
      log.warn("handlers still running after the shutdown grace of {}; interrupting them", grace);
      workers.shutdownNow();
      if (!workers.awaitTermination(2, TimeUnit.SECONDS)) {
        log.warn("handlers ignore interruption; their results will not be reported");
      }
    } catch (InterruptedException e) {
      workers.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
