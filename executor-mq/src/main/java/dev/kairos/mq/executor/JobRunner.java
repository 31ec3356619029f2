package dev.kairos.mq.executor;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;

/**
 * Applies one job's block strategy: which delivery runs now, which waits, which is discarded or
 * covers the running one. Holds no threads; it tells its executor what to launch. All methods are
 * synchronized on the runner (one per job with work on this executor).
 */
final class JobRunner {

  private final Consumer<Run> launch;
  private final Consumer<Delivery> discard;
  private final Deque<Delivery> waiting = new ArrayDeque<>();
  private Run running;

  JobRunner(Consumer<Run> launch, Consumer<Delivery> discard) {
    this.launch = launch;
    this.discard = discard;
  }

  synchronized void submit(Delivery delivery) {
    if (running == null) {
      start(new Run(delivery, null, this));
      return;
    }
    switch (delivery.trigger().blockStrategy()) {
      case SERIAL_EXECUTION -> waiting.add(delivery);
      case DISCARD_LATER -> discard.accept(delivery);
      case COVER_EARLY -> start(new Run(delivery, running, this));
    }
  }

  /** A run ended (or never started); the next waiting delivery, if any, runs. */
  synchronized void finished(Run run) {
    if (running != run) {
      return; // a covered run: its successor is already the running one
    }
    running = null;
    Delivery next = waiting.poll();
    if (next != null) {
      start(new Run(next, null, this));
    }
  }

  synchronized boolean isIdle() {
    return running == null && waiting.isEmpty();
  }

  synchronized int waitingCount() {
    return waiting.size();
  }

  private void start(Run run) {
    running = run;
    launch.accept(run);
  }
}
