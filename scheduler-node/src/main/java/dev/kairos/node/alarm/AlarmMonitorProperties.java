package dev.kairos.node.alarm;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The node's cluster-condition alarms ({@code kairos.alarm.monitor.*}). */
@ConfigurationProperties("kairos.alarm.monitor")
public class AlarmMonitorProperties {

  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);
  public static final Duration DEFAULT_NO_LEADER_AFTER = Duration.ofSeconds(30);
  public static final Duration DEFAULT_EXECUTOR_GRACE = Duration.ofSeconds(60);

  /** Whether this node checks cluster conditions (no leader, sync lag, apps without executor). */
  private boolean enabled = true;

  /** How often each condition is checked. */
  private Duration interval = DEFAULT_INTERVAL;

  /** A member that has neither led nor heard a leader for longer than this raises NO_LEADER. */
  private Duration noLeaderAfter = DEFAULT_NO_LEADER_AFTER;

  /**
   * Lag of persistence-sync (age of the oldest unsynced stream entry) above which the leader raises
   * SYNC_LAG; unset means {@code kairos.sync.lag-threshold}.
   */
  private Duration syncLagThreshold;

  /**
   * How long an executor app with enabled jobs may have no live slot before the leader raises
   * APP_WITHOUT_EXECUTOR (covers an executor restart or a rolling deployment).
   */
  private Duration executorGrace = DEFAULT_EXECUTOR_GRACE;

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Duration getInterval() {
    return interval;
  }

  public void setInterval(Duration interval) {
    this.interval = interval;
  }

  public Duration getNoLeaderAfter() {
    return noLeaderAfter;
  }

  public void setNoLeaderAfter(Duration noLeaderAfter) {
    this.noLeaderAfter = noLeaderAfter;
  }

  public Duration getSyncLagThreshold() {
    return syncLagThreshold;
  }

  public void setSyncLagThreshold(Duration syncLagThreshold) {
    this.syncLagThreshold = syncLagThreshold;
  }

  public Duration getExecutorGrace() {
    return executorGrace;
  }

  public void setExecutorGrace(Duration executorGrace) {
    this.executorGrace = executorGrace;
  }
}
