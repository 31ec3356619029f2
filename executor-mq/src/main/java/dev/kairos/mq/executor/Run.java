package dev.kairos.mq.executor;

/**
 * One run of a delivery on a worker thread. Interruptions (timeout, COVER_EARLY) go through {@link
 * #interrupt} so they can never hit the worker thread after the run finished and the thread moved
 * on to another job.
 */
final class Run {

  final Delivery delivery;

  /** The run this one replaces under COVER_EARLY, or null. */
  final Run covers;

  /** The job's runner that launched this run, and that must hear of its end. */
  final JobRunner runner;

  private Thread thread;
  private boolean finished;
  private boolean timedOut;
  private boolean covered;
  private boolean cancelled;

  Run(Delivery delivery, Run covers, JobRunner runner) {
    this.delivery = delivery;
    this.covers = covers;
    this.runner = runner;
  }

  synchronized void begin() {
    thread = Thread.currentThread();
  }

  /** Interrupts the handler if it is still running; returns whether it did. */
  synchronized boolean interrupt(boolean becauseOfTimeout) {
    if (finished || thread == null) {
      return false;
    }
    if (becauseOfTimeout) {
      timedOut = true;
    } else {
      covered = true;
    }
    thread.interrupt();
    return true;
  }

  /**
   * An operator cancelled the trigger: interrupts the handler if it is still running.
   *
   * @return whether it did (false once finished, before it began, or when already cancelled)
   */
  synchronized boolean cancel() {
    if (finished || thread == null || cancelled) {
      return false;
    }
    cancelled = true;
    thread.interrupt();
    return true;
  }

  synchronized boolean cancelled() {
    return cancelled;
  }

  /** Ends the run; clears an interrupt aimed at it so the pool thread starts clean. */
  synchronized void end() {
    finished = true;
    Thread.interrupted();
  }

  synchronized boolean timedOut() {
    return timedOut;
  }

  synchronized boolean covered() {
    return covered;
  }
}
