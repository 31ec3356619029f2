package dev.kairos.node.cluster.drain;

import dev.kairos.coordinator.failover.NodeHoldings;
import dev.kairos.core.error.KairosException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drains this node out of the cluster for a rolling upgrade (docs/operations.md), reusing the
 * leader's failover move with this node's cooperation instead of a second hand-over path:
 *
 * <ol>
 *   <li><b>RESIGNING</b>: stop standing for election (a leader steps down and deletes its leader
 *       znode, so the others elect at once) and wait until another member leads.
 *   <li><b>QUIESCING</b>: take no more due entries; wait until every send already started is
 *       acknowledged by the broker and recorded (this node's inflight sets are empty). Fires that
 *       come due meanwhile wait on the persisted wheel.
 *   <li><b>HANDING_OFF</b>: write the drain mark. The leader stops assigning to this node and its
 *       failover sweeper moves the wheel to the other members, exactly as for a dead node; wait
 *       until this node holds nothing in any shard, twice {@link #SETTLE} apart (a scan pass that
 *       read the live nodes before the mark has committed by then).
 *   <li><b>LEAVING</b>: close the fire path, leave the membership.
 *   <li><b>DRAINED</b>, then exit the process if asked.
 * </ol>
 *
 * <p>Safety: the order rules out both failure modes. No fire is lost, since entries leave this node
 * only through the leader's fenced move (and the leader's periodic sweep of non-live names covers
 * any straggler). None is sent twice by the hand-over, because the move starts only after this
 * node's inflight sets are empty and it takes nothing more. None fires early: moved entries keep
 * their fire time.
 *
 * <p>One named thread runs a drain; every wait has the drain timeout as its deadline. A step that
 * misses it leaves the node FAILED where it stood (quiesced nodes stay quiesced); asking again runs
 * the idempotent steps from the start.
 */
public final class NodeDrain implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(NodeDrain.class);

  /** Between two checks of a wait. */
  static final Duration POLL = Duration.ofMillis(100);

  /** Holdings must read empty twice this far apart: longer than a scan interval (≤ 1 s). */
  static final Duration SETTLE = Duration.ofMillis(1_500);

  private enum State {
    LATENT,
    STARTED,
    CLOSED
  }

  private final DrainSteps steps;
  private final Duration timeout;
  private final LongSupplier clock;
  private final Runnable exit;
  private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
  private final AtomicReference<DrainStatus> status;
  private ExecutorService runner;

  /**
   * @param timeout the deadline of each wait
   * @param clock epoch ms, for the status's timestamps
   * @param exit stops the process; run once drained when the request asked for it
   */
  public NodeDrain(DrainSteps steps, Duration timeout, LongSupplier clock, Runnable exit) {
    this.steps = steps;
    this.timeout = timeout;
    this.clock = clock;
    this.exit = exit;
    this.status = new AtomicReference<>(DrainStatus.serving(steps.node()));
  }

  public void start() {
    if (!state.compareAndSet(State.LATENT, State.STARTED)) {
      throw new IllegalStateException("node drain was already " + state.get());
    }
    runner =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread thread = new Thread(r, "kairos-drain-" + steps.node());
              thread.setDaemon(true);
              return thread;
            });
  }

  public DrainStatus status() {
    return status.get();
  }

  /**
   * Starts a drain (or resumes a FAILED one); while one runs or after DRAINED only {@code exit} may
   * be added.
   *
   * @return the status right after the request
   * @throws DrainRefusedException when no other serving member could take this node's wheel
   */
  public synchronized DrainStatus request(boolean exitWhenDrained) {
    if (state.get() != State.STARTED) {
      throw new IllegalStateException("node drain is " + state.get());
    }
    DrainStatus current = status.get();
    if (current.phase().inProgress() || current.phase() == DrainPhase.DRAINED) {
      if (exitWhenDrained && !current.exitWhenDrained()) {
        status.updateAndGet(s -> s.exiting(true));
        if (current.phase() == DrainPhase.DRAINED) {
          exit.run();
        }
      }
      return status.get();
    }
    if (current.phase() == DrainPhase.SERVING && steps.otherServingMembers() == 0) {
      throw new DrainRefusedException(
          steps.node() + " is the only serving member: nobody could take its wheel");
    }
    DrainStatus started = current.started(clock.getAsLong(), exitWhenDrained);
    status.set(started);
    try {
      runner.execute(this::run);
    } catch (RejectedExecutionException e) {
      throw new IllegalStateException("node drain is closing", e);
    }
    log.info("node={} drain requested (exit when drained: {})", steps.node(), exitWhenDrained);
    // The status as accepted: the drain thread may already have moved on, and the answer to the
    // request must say what was started, not race it.
    return started;
  }

  private void run() {
    try {
      steps.resign();
      await(DrainPhase.RESIGNING, "another member leads", steps::leaderElsewhere);

      steps.quiesceFiring();
      await(
          DrainPhase.QUIESCING,
          "in-flight sends acknowledged and recorded",
          () -> steps.firingQuiet() && observe().inflight() == 0);

      await(
          DrainPhase.HANDING_OFF,
          "the leader moved this node's wheel to the other members",
          () -> {
            steps.markDraining();
            return observe().isEmpty();
          });
      sleep(SETTLE);
      await(
          DrainPhase.HANDING_OFF,
          "nothing assigned to this node since the move",
          () -> observe().isEmpty());

      move(DrainPhase.LEAVING, "leaving the membership");
      steps.leave();
      await(DrainPhase.LEAVING, "the member znode is gone", () -> !steps.isMember());

      DrainStatus done = move(DrainPhase.DRAINED, "out of the cluster, holding nothing");
      log.info(
          "node={} drained in {} ms{}",
          steps.node(),
          done.finishedMs() - done.startedMs(),
          done.exitWhenDrained() ? "; exiting" : "");
      if (done.exitWhenDrained()) {
        exit.run();
      }
    } catch (DrainTimeoutException e) {
      move(DrainPhase.FAILED, e.getMessage());
      log.error("node={} drain failed: {}; ask again to resume", steps.node(), e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      move(DrainPhase.FAILED, "interrupted (the node is closing)");
    } catch (RuntimeException e) {
      move(DrainPhase.FAILED, e.toString());
      log.error("node={} drain failed; ask again to resume", steps.node(), e);
    }
  }

  private NodeHoldings.Held observe() {
    NodeHoldings.Held held = steps.held();
    status.updateAndGet(s -> s.holding(held.wheel(), held.inflight()));
    return held;
  }

  private DrainStatus move(DrainPhase phase, String why) {
    DrainStatus next = status.updateAndGet(s -> s.at(phase, why, clock.getAsLong()));
    log.info("node={} drain: {} ({})", steps.node(), phase, why);
    return next;
  }

  /** Polls {@code done} until true; a failed check (Redis, ZooKeeper) is retried. */
  private void await(DrainPhase phase, String what, BooleanSupplier done)
      throws InterruptedException {
    if (status.get().phase() != phase) {
      move(phase, "waiting until " + what);
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    RuntimeException last = null;
    while (true) {
      try {
        if (done.getAsBoolean()) {
          return;
        }
      } catch (RuntimeException e) {
        last = e;
        log.debug("node={} drain check '{}' failed: {}", steps.node(), what, e.toString());
      }
      if (System.nanoTime() - deadline > 0) {
        throw new DrainTimeoutException(
            phase
                + ": not "
                + what
                + " within "
                + timeout.toMillis()
                + " ms"
                + (last != null ? " (last check failed: " + last + ")" : ""));
      }
      sleep(POLL);
    }
  }

  private static void sleep(Duration duration) throws InterruptedException {
    Thread.sleep(duration.toMillis());
  }

  /** Interrupts a running drain (the node is stopping); close twice is a no-op. */
  @Override
  public void close() {
    if (state.getAndSet(State.CLOSED) == State.STARTED) {
      runner.shutdownNow();
      try {
        runner.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** A wait missed the drain timeout. */
  private static final class DrainTimeoutException extends KairosException {
    DrainTimeoutException(String message) {
      super(message);
    }
  }
}
