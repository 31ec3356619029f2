package dev.kairos.coordinator.cluster;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.Collection;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's view of the terms (docs/architecture.md "Leadership"): the term it leads, the highest
 * it has seen, when it last heard a leader, whether its ZooKeeper connection is up and when it may
 * next stand. The state machine of {@link LeadershipManager} without its I/O: every transition is
 * made here under this object's monitor, from facts the manager read from ZooKeeper and the other
 * nodes beforehand; nothing here blocks or calls out but the listeners.
 *
 * <p>Any higher term seen is adopted at once and a leader seeing one steps down; so does a leader
 * whose connection is SUSPENDED or LOST. Thread-safe.
 */
final class TermState {

  private static final Logger log = LoggerFactory.getLogger(TermState.class);

  /** What {@link #electionStart} saw: an election's later decisions are judged against it. */
  record Election(long connectionEpoch, long observedTerm) {}

  private final String self;
  private final long timeoutNanos;
  private final LongSupplier nanos;
  private final FollowerLiveness liveness;
  private final List<LeadershipListener> listeners;
  private final MeterRegistry meters;

  private long leadingTerm;
  private long observedTerm;
  private boolean connected = true;
  private long connectionEpoch;
  private long candidateNotBefore;
  private long lastHeard;
  private long lastHeardTerm;
  private long lastSeenLeaderTerm = -1;

  /**
   * @param listeners told of every transition, from inside it (they must not block)
   */
  TermState(
      String self,
      long timeoutNanos,
      LongSupplier nanos,
      FollowerLiveness liveness,
      List<LeadershipListener> listeners,
      MeterRegistry meters) {
    this.self = self;
    this.timeoutNanos = timeoutNanos;
    this.nanos = nanos;
    this.liveness = liveness;
    this.listeners = listeners;
    this.meters = meters;
    this.lastHeard = nanos.getAsLong();
  }

  synchronized long leadingTerm() {
    return leadingTerm;
  }

  synchronized long observedTerm() {
    return observedTerm;
  }

  /** Whether this node still leads {@code term} over a live connection. */
  synchronized boolean stillLeads(long term) {
    return connected && leadingTerm == term;
  }

  /** The term to tick for: the one led, 0 as a follower, or -1 while disconnected (no tick). */
  synchronized long tickTerm() {
    return connected ? leadingTerm : -1;
  }

  /** Starts the leader timeout afresh (at start): a leader gets a full timeout to reach us. */
  synchronized void heardNow() {
    lastHeard = nanos.getAsLong();
  }

  /**
   * A heartbeat from a leader of {@code term}.
   *
   * @return the highest term this node knows of
   */
  synchronized long onHeartbeat(long term, String leaderId) {
    observe(term, "heartbeat from " + leaderId);
    if (term >= observedTerm && leadingTerm == 0) {
      lastHeard = nanos.getAsLong();
      lastHeardTerm = term;
    }
    return observedTerm;
  }

  /** Whether this node leads {@code term} or higher, or heard a leader of it within the timeout. */
  synchronized boolean stillHearsLeader(long term) {
    if (leadingTerm >= term) {
      return true;
    }
    return lastHeardTerm >= term && nanos.getAsLong() - lastHeard < timeoutNanos;
  }

  /** A fence rejected a write of {@code term}: it is over; adopt the fence's term. */
  synchronized void onStaleTerm(long term, long fence) {
    if (leadingTerm == term) {
      revoke("fence", "fence rejection (fence " + fence + ")");
    }
    observe(fence, "fence");
  }

  /** Steps down from {@code term} if this node still leads it. */
  synchronized void stepDown(long term, String tag, String reason) {
    if (leadingTerm == term) {
      revoke(tag, reason);
    }
  }

  /** Adopts {@code term} if higher than any seen; a leader of a lower one steps down. */
  synchronized void observe(long term, String source) {
    if (term <= observedTerm) {
      return;
    }
    observedTerm = term;
    listeners.forEach(l -> l.onTermObserved(term));
    if (leadingTerm > 0 && leadingTerm < term) {
      revoke("higher-term", "higher term " + term + " seen (" + source + ")");
    }
  }

  /**
   * A follower's look at the leader znode ({@code null}: none): a new leader's term resets the
   * leader timeout. Returns whether this node may act as a candidate now (not backing off).
   */
  synchronized boolean followerSees(LeaderRecord znode) {
    long now = nanos.getAsLong();
    if (znode != null) {
      observe(znode.term(), "leader znode");
      if (znode.term() != lastSeenLeaderTerm) {
        lastSeenLeaderTerm = znode.term();
        lastHeard = now; // a new leader gets a full timeout to reach us
      }
    }
    return now - candidateNotBefore >= 0;
  }

  /** Whether the leader has been silent for the leader timeout. */
  synchronized boolean leaderSilent() {
    return nanos.getAsLong() - lastHeard >= timeoutNanos;
  }

  /** The others did not confirm the leader down: ask again after half a timeout. */
  synchronized void confirmationDenied() {
    candidateNotBefore = nanos.getAsLong() + timeoutNanos / 2;
  }

  /** Before an election's reads; null while disconnected (no election). */
  synchronized Election electionStart() {
    return connected ? new Election(connectionEpoch, observedTerm) : null;
  }

  /**
   * Decides, from what the election read, whether to claim a term and the lowest it may claim.
   *
   * @param suspect the leader confirmed down, or null when there was no leader znode
   * @param current the leader znode read afresh (the cache may lag), or null
   * @param allocated the highest term ZooKeeper has handed out
   * @return the lowest term to claim, or 0 to stand down this round
   */
  synchronized long claimFloor(
      Election election, LeaderRecord suspect, LeaderRecord current, long allocated) {
    long now = nanos.getAsLong();
    if (observedTerm != election.observedTerm()) {
      return 0; // a term arrived (heartbeat) while reading: decide again next tick on fresh reads
    }
    if (current != null && (suspect == null || current.term() != suspect.term())) {
      observe(current.term(), "leader znode");
      lastHeard = now;
      return 0;
    }
    long known = Math.max(observedTerm, suspect == null ? 0 : suspect.term());
    if (allocated > known) {
      // Safety: a term won but not yet published gets one leader timeout to publish itself.
      observe(allocated, "allocated term");
      candidateNotBefore = now + timeoutNanos;
      log.info("node={} waits for the winner of term {} to publish itself", self, allocated);
      return 0;
    }
    return observedTerm + 1;
  }

  /** Another node claimed {@code term} first: back off one timeout so it can publish itself. */
  synchronized void lostRace(long term) {
    observe(term, "term " + term + " taken");
    candidateNotBefore = nanos.getAsLong() + timeoutNanos;
  }

  /**
   * This node claimed and published {@code term}: it leads it unless the connection dropped (or was
   * re-established) since the election began, a higher term arrived, or the node is stopping.
   *
   * @param members the ZooKeeper members now: the new leader tracks their answers from here
   * @return whether this node now leads {@code term}
   */
  synchronized boolean elected(
      long term,
      Election election,
      boolean running,
      Collection<Member> members,
      LeaderRecord suspect,
      String reason) {
    if (!connected
        || election.connectionEpoch() != connectionEpoch
        || observedTerm > term
        || !running) {
      log.info("node={} won term {} but lost the connection or saw a higher term", self, term);
      return false;
    }
    observe(term, "own election");
    liveness.elected(members, suspect);
    leadingTerm = term;
    meters.counter("kairos.election.won").increment();
    log.info("node={} elected leader of term {} ({})", self, term, reason);
    listeners.forEach(l -> l.onElected(term));
    return true;
  }

  /** The ZooKeeper session is SUSPENDED, LOST or read-only: no leadership without it. */
  synchronized void disconnected(String connectionState) {
    connected = false;
    connectionEpoch++;
    revoke("zookeeper-" + connectionState.toLowerCase(), "ZooKeeper " + connectionState);
  }

  /** Connected again: the leader gets a full timeout, and this node may stand at once after. */
  synchronized void reconnected() {
    connected = true;
    lastHeard = nanos.getAsLong();
    candidateNotBefore = lastHeard;
  }

  /**
   * @param tag the {@code reason} tag of {@code kairos.election.stepdowns}
   */
  private void revoke(String tag, String reason) {
    if (leadingTerm == 0) {
      return;
    }
    long term = leadingTerm;
    leadingTerm = 0;
    liveness.revoked();
    lastHeard = nanos.getAsLong();
    meters.counter("kairos.election.stepdowns", "reason", tag).increment();
    if (tag.equals("closed")) {
      // The node is stopping: an orderly hand-over, nothing for an operator to look at.
      log.info("node={} steps down from term {}: {}", self, term, reason);
    } else {
      log.warn("node={} steps down from term {}: {}", self, term, reason);
    }
    listeners.forEach(l -> l.onRevoked(term));
  }

  /** The node is stopping: an orderly step-down if it leads. */
  synchronized void closed() {
    revoke("closed", "closed");
  }
}
