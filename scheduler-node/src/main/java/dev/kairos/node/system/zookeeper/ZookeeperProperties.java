package dev.kairos.node.system.zookeeper;

import dev.kairos.node.cluster.TimingParameters;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/** The ZooKeeper ensemble used for membership and leader election ({@code kairos.zookeeper.*}). */
@Validated
@ConfigurationProperties("kairos.zookeeper")
public class ZookeeperProperties {

  public static final String DEFAULT_CONNECT_STRING = "127.0.0.1:2181";
  public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(3);
  public static final String DEFAULT_ROOT_PATH = "/kairos";
  public static final Duration DEFAULT_RETRY_BASE_SLEEP = Duration.ofMillis(100);
  public static final int DEFAULT_RETRY_MAX_ATTEMPTS = 10;

  /** Comma-separated host:port list of the ensemble, optionally followed by a chroot. */
  @NotBlank private String connectString = DEFAULT_CONNECT_STRING;

  /**
   * Session timeout asked of the servers; ephemeral znodes of a dead node vanish after it.
   * Curator's 60 s default is far too long for failover.
   */
  @NotNull private Duration sessionTimeout = TimingParameters.DEFAULT_ZK_SESSION_TIMEOUT;

  /**
   * The servers' tickTime as configured in zoo.cfg (not sent anywhere): servers never grant a
   * session shorter than 2 × tickTime, so the session timeout is checked against it.
   */
  @NotNull private Duration tickTime = TimingParameters.DEFAULT_ZK_TICK_TIME;

  /** How long a connection attempt may take before Curator retries. */
  @NotNull private Duration connectionTimeout = DEFAULT_CONNECTION_TIMEOUT;

  /** Root znode under which every Kairos znode of this cluster lives. */
  @NotBlank
  @Pattern(regexp = "/[^/].*[^/]|/[^/]", message = "must start with '/' and not end with '/'")
  private String rootPath = DEFAULT_ROOT_PATH;

  /** First sleep of Curator's exponential back-off between retries of a failed operation. */
  @NotNull private Duration retryBaseSleep = DEFAULT_RETRY_BASE_SLEEP;

  /** How many times Curator retries a failed operation before giving up. */
  @Min(0)
  @Max(29) // ExponentialBackoffRetry's own cap
  private int retryMaxAttempts = DEFAULT_RETRY_MAX_ATTEMPTS;

  public String getConnectString() {
    return connectString;
  }

  public void setConnectString(String connectString) {
    this.connectString = connectString;
  }

  public Duration getSessionTimeout() {
    return sessionTimeout;
  }

  public void setSessionTimeout(Duration sessionTimeout) {
    this.sessionTimeout = sessionTimeout;
  }

  public Duration getTickTime() {
    return tickTime;
  }

  public void setTickTime(Duration tickTime) {
    this.tickTime = tickTime;
  }

  public Duration getConnectionTimeout() {
    return connectionTimeout;
  }

  public void setConnectionTimeout(Duration connectionTimeout) {
    this.connectionTimeout = connectionTimeout;
  }

  public String getRootPath() {
    return rootPath;
  }

  public void setRootPath(String rootPath) {
    this.rootPath = rootPath;
  }

  public Duration getRetryBaseSleep() {
    return retryBaseSleep;
  }

  public void setRetryBaseSleep(Duration retryBaseSleep) {
    this.retryBaseSleep = retryBaseSleep;
  }

  public int getRetryMaxAttempts() {
    return retryMaxAttempts;
  }

  public void setRetryMaxAttempts(int retryMaxAttempts) {
    this.retryMaxAttempts = retryMaxAttempts;
  }
}
