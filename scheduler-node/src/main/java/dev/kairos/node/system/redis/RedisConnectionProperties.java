package dev.kairos.node.system.redis;

import dev.kairos.core.redis.ReplicaWait;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/** The Redis deployment that holds jobs, wheels and fences ({@code kairos.redis.*}). */
@Validated
@ConfigurationProperties("kairos.redis")
public class RedisConnectionProperties {

  public static final String DEFAULT_URI = "redis://127.0.0.1:6379";
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

  /**
   * Redis URIs ({@code redis://[:password@]host:port}); one for a standalone server, any number of
   * seed nodes for a cluster. Passwords in them are never logged or shown by health.
   */
  @NotEmpty private List<String> uris = new ArrayList<>(List.of(DEFAULT_URI));

  /** Whether the URIs point at a Redis Cluster rather than a standalone server. */
  private boolean cluster = false;

  /** Command timeout: a command not answered within it fails instead of waiting. */
  @NotNull private Duration timeout = DEFAULT_TIMEOUT;

  /**
   * Replicas that must acknowledge each fire-claim script ({@code WAIT n timeout} after it, one per
   * batch); 0 sends no WAIT. Fewer acknowledgements proceed, counted in {@code
   * kairos.redis.wait.unacknowledged}.
   */
  @Min(0)
  private int waitReplicas = 0;

  /** How long one WAIT may block; must be shorter than {@link #timeout}. */
  @NotNull private Duration waitTimeout = ReplicaWait.DEFAULT_TIMEOUT;

  public List<String> getUris() {
    return uris;
  }

  public void setUris(List<String> uris) {
    this.uris = uris;
  }

  public boolean isCluster() {
    return cluster;
  }

  public void setCluster(boolean cluster) {
    this.cluster = cluster;
  }

  public Duration getTimeout() {
    return timeout;
  }

  public void setTimeout(Duration timeout) {
    this.timeout = timeout;
  }

  public int getWaitReplicas() {
    return waitReplicas;
  }

  public void setWaitReplicas(int waitReplicas) {
    this.waitReplicas = waitReplicas;
  }

  public Duration getWaitTimeout() {
    return waitTimeout;
  }

  public void setWaitTimeout(Duration waitTimeout) {
    this.waitTimeout = waitTimeout;
  }
}
