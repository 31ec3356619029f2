package dev.kairos.node.cluster.drain;

import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;

/**
 * The {@code drain} health component: UP while serving, {@code DRAINING} while a drain runs,
 * OUT_OF_SERVICE once drained (a rolling-upgrade script waits for it, a load balancer stops
 * routing), DOWN when a drain failed. The details are the drain's status.
 */
public class DrainHealthIndicator extends AbstractHealthIndicator {

  /** A drain runs: the node still answers its API but takes no fires. */
  public static final Status DRAINING = new Status("DRAINING");

  private final NodeDrain drain;

  public DrainHealthIndicator(NodeDrain drain) {
    super("drain health check failed");
    this.drain = drain;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    DrainStatus status = drain.status();
    switch (status.phase()) {
      case SERVING -> builder.up();
      case DRAINED -> builder.outOfService();
      case FAILED -> builder.down();
      default -> builder.status(DRAINING);
    }
    builder
        .withDetail("phase", status.phase())
        .withDetail("wheelEntries", status.wheelEntries())
        .withDetail("inflightEntries", status.inflightEntries())
        .withDetail("message", status.message());
  }
}
