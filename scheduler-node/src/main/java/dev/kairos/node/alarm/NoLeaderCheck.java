package dev.kairos.node.alarm;

import dev.kairos.core.alarm.Alarm;
import dev.kairos.core.alarm.AlarmKind;
import dev.kairos.core.alarm.AlarmSink;
import dev.kairos.core.time.KairosClock;
import java.time.Duration;
import java.util.Map;

/**
 * NO_LEADER: this node, a live member of the cluster, has neither led nor heard a leader's
 * heartbeat for longer than the bound. A node that is not a member (its ZooKeeper session is down)
 * does not judge: it cannot tell a leaderless cluster from its own isolation, and the members can.
 */
final class NoLeaderCheck implements ConditionCheck {

  static final String SUBJECT = "cluster";

  private final LeaderView view;
  private final KairosClock clock;
  private final long boundMs;
  private final AlarmSink sink;
  private final String node;
  // Monitor thread only.
  private long leaderlessSinceMs = -1;
  private volatile boolean active;

  NoLeaderCheck(LeaderView view, KairosClock clock, Duration bound, AlarmSink sink, String node) {
    this.view = view;
    this.clock = clock;
    this.boundMs = bound.toMillis();
    this.sink = sink;
    this.node = node;
  }

  @Override
  public String name() {
    return "no-leader";
  }

  @Override
  public boolean active() {
    return active;
  }

  @Override
  public void check() {
    long now = clock.nowMs();
    if (!view.isMember() || view.hearsLeader()) {
      leaderlessSinceMs = -1;
      active = false;
      return;
    }
    if (leaderlessSinceMs < 0) {
      leaderlessSinceMs = now;
    }
    long leaderlessMs = now - leaderlessSinceMs;
    active = leaderlessMs > boundMs;
    if (active) {
      sink.raise(
          new Alarm(
              AlarmKind.NO_LEADER,
              SUBJECT,
              "no leader for " + leaderlessMs / 1000 + " s (seen from node " + node + ")",
              Map.of(
                  "node", node,
                  "leaderlessMs", Long.toString(leaderlessMs),
                  "boundMs", Long.toString(boundMs),
                  "observedTerm", Long.toString(view.observedTerm())),
              now));
    }
  }
}
