package dev.kairos.coordinator.cluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The leader's record of which followers answer its heartbeats (docs/design.md "Leadership": a
 * follower that stops answering, or whose znode vanishes, is declared dead). A member whose current
 * incarnation has not answered for the leader timeout is <em>unresponsive</em>: the leader stops
 * assigning to it and sweeps its wheel, without waiting for its ZooKeeper session to expire (a
 * killed node's znode outlives it by the session timeout; a paused one's may never vanish). Moving
 * a live node's entries is safe: a node fires only from its own keys.
 *
 * <p>Each member gets a full timeout of grace when this node is elected and when a new incarnation
 * of it appears; the leader confirmed down by a majority at election is declared dead at once.
 * Thread-safe: the leadership loop writes, the scanner and the sweeper read.
 */
final class FollowerLiveness {

  private record Seen(String incarnation, long lastAnsweredNanos, boolean declared) {}

  private final long timeoutNanos;
  private final LongSupplier nanos;
  private final Map<String, Seen> byName = new HashMap<>();
  private boolean tracking;

  FollowerLiveness(long timeoutNanos, LongSupplier nanos) {
    this.timeoutNanos = timeoutNanos;
    this.nanos = nanos;
  }

  /**
   * Starts tracking for a new term: every member gets a full timeout, except {@code confirmedDown}
   * (the previous leader's name and incarnation a majority confirmed down, or null).
   */
  synchronized void elected(Collection<Member> members, LeaderRecord confirmedDown) {
    byName.clear();
    tracking = true;
    long now = nanos.getAsLong();
    for (Member member : members) {
      boolean down =
          confirmedDown != null
              && member.name().equals(confirmedDown.leaderId())
              && member.incarnation().equals(confirmedDown.incarnation());
      // Safety: declared before onElected runs, so the first scan and the election sweep
      // already treat the old leader as dead.
      byName.put(member.name(), new Seen(member.incarnation(), now, down));
    }
  }

  /** This node no longer leads: nobody is declared dead by it. */
  synchronized void revoked() {
    byName.clear();
    tracking = false;
  }

  /** {@code member} answered a heartbeat of this leader. */
  synchronized void answered(Member member) {
    if (tracking) {
      byName.put(member.name(), new Seen(member.incarnation(), nanos.getAsLong(), false));
    }
  }

  /**
   * Reconciles with the current ZooKeeper members and returns those newly declared dead: silent for
   * the timeout, not declared before. New names and new incarnations get a full timeout; names that
   * left ZooKeeper are forgotten (the membership's own "left" event covers them).
   */
  synchronized List<Member> expire(Collection<Member> members, String self) {
    if (!tracking) {
      return List.of();
    }
    long now = nanos.getAsLong();
    Set<String> present = new HashSet<>();
    List<Member> declared = new ArrayList<>();
    for (Member member : members) {
      present.add(member.name());
      if (member.name().equals(self)) {
        continue;
      }
      Seen seen = byName.get(member.name());
      if (seen == null || !seen.incarnation().equals(member.incarnation())) {
        byName.put(member.name(), new Seen(member.incarnation(), now, false));
      } else if (!seen.declared() && now - seen.lastAnsweredNanos() >= timeoutNanos) {
        byName.put(member.name(), new Seen(seen.incarnation(), seen.lastAnsweredNanos(), true));
        declared.add(member);
      }
    }
    byName.keySet().retainAll(present);
    return declared;
  }

  /** Whether {@code name} may receive fires: true unless this leader declared it dead. */
  synchronized boolean isResponsive(String name) {
    Seen seen = byName.get(name);
    return seen == null || !seen.declared();
  }
}
