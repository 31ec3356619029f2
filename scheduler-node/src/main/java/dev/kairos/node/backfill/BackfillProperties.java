package dev.kairos.node.backfill;

import dev.kairos.backfill.Backfills;
import dev.kairos.node.system.PositiveDuration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/** Backfills of a job's past fires ({@code kairos.backfill.*}). */
@Validated
@ConfigurationProperties("kairos.backfill")
public class BackfillProperties {

  /** Default pause between two passes of the leader's driver. */
  public static final Duration DEFAULT_TICK_INTERVAL = Duration.ofMillis(500);

  /** Default time an ended backfill is kept. */
  public static final Duration DEFAULT_RETENTION = Duration.ofDays(30);

  /**
   * Whether this node serves the backfill endpoints and, while it leads, drives backfills. Off on
   * every node: no backfill runs (those RUNNING wait until a leader with it on drives them).
   */
  private boolean enabled = true;

  /** Pause between two passes of the leader's driver over the RUNNING backfills. */
  @NotNull @PositiveDuration private Duration tickInterval = DEFAULT_TICK_INTERVAL;

  /** Most fires one backfill may run: a larger range is refused (400 naming {@code to}). */
  @Min(1)
  @Max(1_000_000)
  private int maxFires = Backfills.DEFAULT_MAX_FIRES;

  /** Highest {@code maxConcurrent} a backfill may ask for (400 naming it above). */
  @Min(1)
  @Max(10_000)
  private int maxConcurrent = Backfills.DEFAULT_MAX_CONCURRENT;

  /**
   * How long an ended (SUCCEEDED, FAILED, CANCELLED) backfill is kept: until then the same request
   * answers it instead of starting another.
   */
  @NotNull private Duration retention = DEFAULT_RETENTION;

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Duration getTickInterval() {
    return tickInterval;
  }

  public void setTickInterval(Duration tickInterval) {
    this.tickInterval = tickInterval;
  }

  public int getMaxFires() {
    return maxFires;
  }

  public void setMaxFires(int maxFires) {
    this.maxFires = maxFires;
  }

  public int getMaxConcurrent() {
    return maxConcurrent;
  }

  public void setMaxConcurrent(int maxConcurrent) {
    this.maxConcurrent = maxConcurrent;
  }

  public Duration getRetention() {
    return retention;
  }

  public void setRetention(Duration retention) {
    this.retention = retention;
  }
}
