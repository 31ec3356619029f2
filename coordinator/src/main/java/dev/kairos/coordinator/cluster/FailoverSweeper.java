package dev.kairos.coordinator.cluster;

import dev.kairos.coordinator.assign.LiveNodes;
import dev.kairos.core.lifecycle.Lifecycle;
import dev.kairos.core.time.KairosClock;
import dev.kairos.protocol.failover.MoveReport;
import dev.kairos.protocol.failover.NodeEntryMover;
import dev.kairos.protocol.fence.ShardFence;
import dev.kairos.protocol.fence.StaleTermException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's wheel failover: at election (after raising every fence to the term), every {@code
 * interval}, whenever a member's znode vanishes, whenever a member asks to be drained and whenever
 * the leader declares a silent follower dead, moves the entries of every node name in any shard's
 * node set that is not a live member to the live members. Sweeping every orphan (not just the node
 * that died) covers a leader killed half way through a move and a claim written to a node just
 * swept. Only the sweeper thread sweeps; a fence rejection stops it and goes to {@code onStaleTerm}
 * (wire {@link LeadershipManager#onStaleTerm}).
 */
public final class FailoverSweeper
    implements LeadershipListener, MembershipListener, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(FailoverSweeper.class);

  private final String nodeName;
  private final NodeEntryMover mover;
  private final ShardFence fence;
  private final LiveNodes liveNodes;
  private final KairosClock clock;
  private final Duration interval;
  private final Consumer<StaleTermException> onStaleTerm;
  private final Lifecycle lifecycle = new Lifecycle("failover sweeper");
  private final Counter sweeps;
  private final Counter nodesSwept;
  private final Counter errors;
  private final Counter noLiveNodes;
  private volatile long term;
  private ScheduledExecutorService executor;

  /** Only the sweeper thread touches it. */
  private long fencedTerm;

  public FailoverSweeper(
      String nodeName,
      NodeEntryMover mover,
      ShardFence fence,
      LiveNodes liveNodes,
      KairosClock clock,
      Duration interval,
      Consumer<StaleTermException> onStaleTerm,
      MeterRegistry meters) {
    this.nodeName = nodeName;
    this.mover = mover;
    this.fence = fence;
    this.liveNodes = liveNodes;
    this.clock = clock;
    this.interval = interval;
    this.onStaleTerm = onStaleTerm;
    this.sweeps = meters.counter("kairos.failover.sweeps");
    this.nodesSwept = meters.counter("kairos.failover.nodes.swept");
    this.errors = meters.counter("kairos.failover.sweep.errors");
    this.noLiveNodes = meters.counter("kairos.failover.no.live.nodes");
  }

  public void start() {
    lifecycle.start();
    executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "kairos-failover-sweep-" + nodeName);
              thread.setDaemon(true);
              return thread;
            });
    executor.scheduleWithFixedDelay(
        () -> sweep(term), interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void onElected(long term) {
    this.term = term;
    submit(term);
  }

  @Override
  public void onRevoked(long term) {
    if (this.term == term) {
      this.term = 0;
    }
  }

  @Override
  public void left(Member member) {
    submit(term);
  }

  /** A member being drained: its live-node view already excludes it, so the sweep moves it. */
  @Override
  public void draining(Member member) {
    submit(term);
  }

  @Override
  public void onFollowerDead(long forTerm, Member member) {
    submit(forTerm);
  }

  private void submit(long forTerm) {
    if (forTerm > 0 && lifecycle.isStarted()) {
      try {
        executor.execute(() -> sweep(forTerm));
      } catch (RejectedExecutionException e) {
        // closing
      }
    }
  }

  private void sweep(long forTerm) {
    if (forTerm == 0 || term != forTerm || !lifecycle.isStarted()) {
      return;
    }
    try {
      if (fencedTerm != forTerm) {
        fence.raiseAll(forTerm);
        fencedTerm = forTerm;
      }
      List<String> live = liveNodes.current();
      if (live.isEmpty()) {
        noLiveNodes.increment();
        return;
      }
      Set<String> orphaned = mover.orphanedNodes(live);
      for (String dead : orphaned) {
        if (term != forTerm) {
          return; // revoked mid-sweep: not one more move
        }
        MoveReport report = mover.moveAll(forTerm, dead, live, clock.nowMs());
        nodesSwept.increment();
        log.info(
            "term={} swept node={}: {} entries moved, {} stale dropped",
            forTerm,
            dead,
            report.movedCount(),
            report.staleDropped());
      }
      sweeps.increment();
    } catch (StaleTermException e) {
      log.warn("term={} sweep hit fence {}; stepping down", forTerm, e.fence());
      term = 0;
      onStaleTerm.accept(e);
    } catch (RuntimeException e) {
      if (!lifecycle.isStarted()) {
        return; // close() interrupted this sweep; nothing failed
      }
      errors.increment();
      log.error("term={} failover sweep failed; the sweeper will keep running", forTerm, e);
    }
  }

  /** Stops sweeping; close twice is a no-op. */
  @Override
  public void close() {
    Lifecycle.State previous = lifecycle.closeFrom();
    term = 0;
    if (previous == Lifecycle.State.STARTED) {
      executor.shutdownNow();
      try {
        executor.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
