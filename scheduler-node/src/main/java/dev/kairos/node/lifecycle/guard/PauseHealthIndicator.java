package dev.kairos.node.lifecycle.guard;

import dev.kairos.coordinator.pause.ClusterPause;
import dev.kairos.coordinator.pause.PauseState;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * The {@code scheduling} health component: whether scheduling is paused cluster-wide. A pause is an
 * operator's decision, not a fault, so the component stays UP and says so in its details; it is
 * DOWN only when the flag cannot be read.
 */
class PauseHealthIndicator extends AbstractHealthIndicator {

  private final ClusterPause pause;

  PauseHealthIndicator(ClusterPause pause) {
    super("scheduling pause check failed");
    this.pause = pause;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    PauseState state = pause.state();
    builder.up().withDetail("paused", state.paused());
    if (state.paused()) {
      builder.withDetail("pausedSinceMs", state.sinceMs()).withDetail("pausedBy", state.by());
    }
  }
}
