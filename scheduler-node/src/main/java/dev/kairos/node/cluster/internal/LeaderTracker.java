package dev.kairos.node.cluster.internal;

import java.util.concurrent.atomic.AtomicReference;

/** The leader this node last heard from (by heartbeat), for health; never goes back in term. */
final class LeaderTracker {

  record Heard(long term, String leaderId) {}

  private final AtomicReference<Heard> last = new AtomicReference<>(new Heard(0, ""));

  void heard(long term, String leaderId) {
    last.accumulateAndGet(new Heard(term, leaderId), (a, b) -> b.term() >= a.term() ? b : a);
  }

  Heard last() {
    return last.get();
  }
}
