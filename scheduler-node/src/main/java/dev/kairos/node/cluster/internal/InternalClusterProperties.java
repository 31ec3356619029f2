package dev.kairos.node.cluster.internal;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * How nodes talk to each other for leadership ({@code kairos.cluster.secret}, {@code
 * kairos.cluster.leadership.*}); the timing itself is {@code ClusterProperties}.
 */
@Validated
@ConfigurationProperties("kairos.cluster")
public class InternalClusterProperties {

  public static final Duration DEFAULT_FAILOVER_SWEEP_INTERVAL = Duration.ofSeconds(10);

  public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofMinutes(2);

  /**
   * Shared secret every node sends to the others' internal endpoints (header {@code
   * X-Kairos-Cluster-Secret}) and requires from them; the same value on every node. Empty means a
   * random secret for this process: fine for one node, but then no other node can reach it.
   */
  private String secret = "";

  /** Leader election and the leader's duties (scanning, failover). */
  private final Leadership leadership = new Leadership();

  /** Draining this node out of the cluster ({@code POST /api/v1/node/drain}). */
  private final Drain drain = new Drain();

  public String getSecret() {
    return secret;
  }

  public void setSecret(String secret) {
    this.secret = secret;
  }

  public Leadership getLeadership() {
    return leadership;
  }

  public Drain getDrain() {
    return drain;
  }

  /** {@code kairos.cluster.drain.*}. */
  public static class Drain {

    /**
     * How long each step of a drain may wait (another member leading, in-flight sends acknowledged,
     * the wheel moved, the member znode gone) before the drain is reported FAILED.
     */
    @NotNull private Duration timeout = DEFAULT_DRAIN_TIMEOUT;

    public Duration getTimeout() {
      return timeout;
    }

    public void setTimeout(Duration timeout) {
      this.timeout = timeout;
    }
  }

  /** {@code kairos.cluster.leadership.*}. */
  public static class Leadership {

    /** Whether this node joins the election (and, when it leads, scans and sweeps). */
    private boolean enabled = true;

    /** How often the leader moves the wheel entries of node names that are not live members. */
    @NotNull private Duration failoverSweepInterval = DEFAULT_FAILOVER_SWEEP_INTERVAL;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Duration getFailoverSweepInterval() {
      return failoverSweepInterval;
    }

    public void setFailoverSweepInterval(Duration failoverSweepInterval) {
      this.failoverSweepInterval = failoverSweepInterval;
    }
  }

  @Override
  public String toString() {
    return "InternalClusterProperties[secret=****, leadership.enabled=" + leadership.enabled + "]";
  }
}
