package dev.kairos.node.api.audit;

import dev.kairos.audit.AuditRetention;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.node.system.PositiveDuration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/** The durable audit trail of API writes ({@code kairos.audit.*}). */
@Validated
@ConfigurationProperties("kairos.audit")
public class AuditProperties {

  /** Default entries read and written to PostgreSQL per round. */
  public static final int DEFAULT_BATCH_SIZE = 200;

  /**
   * Whether API writes are recorded in the audit stream and copied to PostgreSQL, and {@code GET
   * /api/v1/audit} answers. Off: the log lines of {@code dev.kairos.node.api.audit} only.
   */
  private boolean enabled = true;

  /** Entries older than this are deleted from PostgreSQL ({@code kairos_audit}); at least 1 day. */
  @NotNull private Duration retention = AuditRetention.DEFAULT_RETENTION;

  /** How often the retention runs. */
  @NotNull @PositiveDuration private Duration retentionInterval = AuditRetention.DEFAULT_INTERVAL;

  /**
   * Cap of the Redis stream {@code kairos:{audit}:log} ({@code XADD MAXLEN ~}): how many entries a
   * PostgreSQL outage may leave waiting before the oldest are lost.
   */
  @Min(1_000)
  private long streamMaxLen = RedisKeys.DEFAULT_AUDIT_MAX_LEN;

  /** Entries read from the stream and inserted in one transaction per round. */
  @Min(1)
  @Max(10_000)
  private int batchSize = DEFAULT_BATCH_SIZE;

  /** Pause after a round that found less than a batch. */
  @NotNull @PositiveDuration private Duration pollInterval = Duration.ofSeconds(1);

  /** Entries another node read and left unacknowledged this long are taken over (it died). */
  @NotNull private Duration claimIdle = Duration.ofMinutes(1);

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Duration getRetention() {
    return retention;
  }

  public void setRetention(Duration retention) {
    this.retention = retention;
  }

  public Duration getRetentionInterval() {
    return retentionInterval;
  }

  public void setRetentionInterval(Duration retentionInterval) {
    this.retentionInterval = retentionInterval;
  }

  public long getStreamMaxLen() {
    return streamMaxLen;
  }

  public void setStreamMaxLen(long streamMaxLen) {
    this.streamMaxLen = streamMaxLen;
  }

  public int getBatchSize() {
    return batchSize;
  }

  public void setBatchSize(int batchSize) {
    this.batchSize = batchSize;
  }

  public Duration getPollInterval() {
    return pollInterval;
  }

  public void setPollInterval(Duration pollInterval) {
    this.pollInterval = pollInterval;
  }

  public Duration getClaimIdle() {
    return claimIdle;
  }

  public void setClaimIdle(Duration claimIdle) {
    this.claimIdle = claimIdle;
  }
}
