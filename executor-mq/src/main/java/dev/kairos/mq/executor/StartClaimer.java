package dev.kairos.mq.executor;

import dev.kairos.core.lifecycle.Lifecycle;
import dev.kairos.mq.executor.ExecutorCounters.Outcome;
import dev.kairos.protocol.message.ResultStatus;
import dev.kairos.protocol.message.TriggerMessage;
import dev.kairos.protocol.start.StartOutcome;
import dev.kairos.protocol.start.StartRequest;
import dev.kairos.protocol.start.TriggerRecords;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The once-only start claim of a delivery, made as its handler is about to run: it waits while the
 * slot's lease is only untrusted, claims, and when Redis does not answer it claims again until it
 * does, telling this instance's own earlier claim apart from another's (issue #14). Marks the
 * delivery done in its tenure's offsets once the outcome is known, and reports copies and expired
 * triggers. Thread-safe: called from the worker threads.
 */
final class StartClaimer {

  private static final Logger log = LoggerFactory.getLogger(StartClaimer.class);

  /** How many recently started trigger ids {@link #startedHere} keeps. */
  private static final int STARTED_HERE_CAPACITY = 100_000;

  /** Longest pause between two tries of a start claim whose answer was lost. */
  private static final long CLAIM_RETRY_MAX_MS = 1_000;

  /** How often a claim waiting for the lease's trust looks again (a renewal retries as fast). */
  private static final long TRUST_POLL_MS = 20;

  private final TriggerRecords records;
  private final Supplier<SlotTenure> tenure;
  private final Lifecycle lifecycle;
  private final ExecutorCounters counters;
  private final RunEnds ends;
  private final LongAdder ownLostClaims = new LongAdder();

  /**
   * Trigger ids this instance started, most recent last (bounded): tells a claim of ours whose
   * reply was lost apart from a copy of a trigger this instance already ran.
   */
  private final Set<String> startedHere =
      Collections.newSetFromMap(
          new LinkedHashMap<>(1024, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
              return size() > STARTED_HERE_CAPACITY;
            }
          });

  StartClaimer(
      TriggerRecords records,
      Supplier<SlotTenure> tenure,
      Lifecycle lifecycle,
      ExecutorCounters counters,
      RunEnds ends) {
    this.records = records;
    this.tenure = tenure;
    this.lifecycle = lifecycle;
    this.counters = counters;
    this.ends = ends;
  }

  /** Start claims whose answer was lost and that turned out to have committed (then run). */
  long ownLostClaims() {
    return ownLostClaims.sum();
  }

  /**
   * Claims the start of a delivery; reports and returns the outcome, or null when the claim could
   * not be made (its tenure is over, or the executor is stopping): then the offset stays
   * uncommitted so the slot's next owner, or the scheduler's re-dispatch, brings it back.
   */
  StartOutcome claim(Delivery delivery) {
    if (!awaitTrust(delivery)) {
      return null; // received under a tenure since ended, or stopping: the slot's owner has it
    }
    TriggerMessage trigger = delivery.trigger();
    log.debug("claiming the start of {}", trigger.triggerId());
    SlotTenure held = delivery.tenure();
    StartOutcome outcome =
        claimResolvingLostReplies(
            StartRequest.of(trigger, held.lease.instanceId(), held.lease.slot()), delivery);
    if (outcome == null) {
      return null;
    }
    delivery.done();
    switch (outcome.kind()) {
      case STARTED -> {
        synchronized (startedHere) {
          startedHere.add(trigger.triggerId());
        }
        counters.count(trigger.handler(), Outcome.STARTED);
      }
      case DUPLICATE -> {
        counters.count(trigger.handler(), Outcome.DUPLICATE);
        ends.report(
            trigger,
            held.lease.slot(),
            ResultStatus.DUPLICATE,
            0,
            "already " + outcome.stateFound());
      }
      case EXPIRED -> {
        counters.count(trigger.handler(), Outcome.EXPIRED);
        ends.report(
            trigger, held.lease.slot(), ResultStatus.EXPIRED, 0, "older than the dedup window");
      }
      case DROPPED -> {
        // Recorded DROPPED_STALE by the claim itself; nothing to report.
        counters.count(trigger.handler(), Outcome.DROPPED);
        log.info(
            "trigger {} not started: its job was deleted, disabled or rescheduled after it was"
                + " sent",
            trigger.triggerId());
      }
    }
    return outcome;
  }

  /**
   * Claims a start; when Redis does not answer (a timeout or a dropped connection, after which the
   * script may or may not have committed) it tries again until Redis answers, so a claim is never
   * left RUNNING with its handler unrun. A try that finds the trigger RUNNING by this instance,
   * which has not started it, is this claim's own earlier try: the handler runs. While the lease is
   * not trusted it only reads the record (a claim that had not committed is left to the slot's next
   * owner).
   *
   * @return the outcome, or null when the start was not claimed and is left to the next owner
   */
  private StartOutcome claimResolvingLostReplies(StartRequest request, Delivery delivery) {
    long pauseMs = 50;
    boolean lostReply = false;
    while (true) {
      try {
        if (awaitTrust(delivery)) {
          StartOutcome outcome = records.claimStart(request);
          return lostReply ? ownLostClaim(request, outcome) : outcome;
        }
        if (!lostReply) {
          return null;
        }
        String[] found = records.stateAndExecutor(request.triggerId(), request.jobId());
        StartOutcome read =
            new StartOutcome(
                StartOutcome.Kind.DUPLICATE, System.currentTimeMillis(), found[0], found[1]);
        StartOutcome own = ownLostClaim(request, read);
        return own.started() ? own : null;
      } catch (RuntimeException e) {
        counters.errors.increment();
        if (!lostReply) {
          log.warn(
              "start claim of {} got no answer ({}); trying again until Redis answers",
              request.triggerId(),
              e.toString());
        }
        lostReply = true;
      }
      if (!lifecycle.isStarted()) {
        return null; // stopping: the lost-trigger monitor settles a claim that had committed
      }
      try {
        Thread.sleep(pauseMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
      pauseMs = Math.min(pauseMs * 2, CLAIM_RETRY_MAX_MS);
    }
  }

  /**
   * Waits while the delivery's tenure is only untrusted — a renewal is late because Redis is slow
   * or restarting — until it is trusted again (true), or over, replaced by a new tenure, or the
   * executor stopping (false). Giving up on a merely untrusted lease would leave the delivery
   * unclaimed while its offset is already past the poll: nothing would bring it back before the
   * lost-trigger monitor's start timeout (a minute), and its pending offset would hold back every
   * later commit (issue #14: one overloaded second lost 128 starts this way).
   */
  private boolean awaitTrust(Delivery delivery) {
    while (true) {
      SlotTenure held = delivery.tenure();
      if (held != tenure.get() || held.isOver() || !lifecycle.isStarted()) {
        return false;
      }
      if (held.lease.isValid()) {
        return true;
      }
      try {
        Thread.sleep(TRUST_POLL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }

  /** After a lost reply: RUNNING by this instance, not started here, is this claim's own. */
  private StartOutcome ownLostClaim(StartRequest request, StartOutcome outcome) {
    boolean startedBefore;
    synchronized (startedHere) {
      startedBefore = startedHere.contains(request.triggerId());
    }
    if (outcome.kind() == StartOutcome.Kind.DUPLICATE
        && "RUNNING".equals(outcome.stateFound())
        && request.executorId().equals(outcome.executorFound())
        && !startedBefore) {
      ownLostClaims.increment();
      log.info(
          "start claim of {} had committed before its answer was lost: running it",
          request.triggerId());
      return new StartOutcome(
          StartOutcome.Kind.STARTED, outcome.startedMs(), "RUNNING", request.executorId());
    }
    return outcome;
  }
}
