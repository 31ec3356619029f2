package dev.kairos.node.result;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/** How this node consumes executors' results ({@code kairos.results.*}). */
@Validated
@ConfigurationProperties("kairos.results")
public class ResultProperties {

  public static final int DEFAULT_CONSUMER_THREADS = 4;
  public static final Duration DEFAULT_WRITE_TIMEOUT = Duration.ofSeconds(5);

  /** Whether this node consumes {@code kairos_results} (the consumer group shares the work). */
  private boolean enabled = true;

  /** Consumer threads; each handles a batch of up to 64 results with pipelined Redis writes. */
  @Min(1)
  @Max(64)
  private int consumerThreads = DEFAULT_CONSUMER_THREADS;

  /** How long one batch's trigger record writes may take before the batch is redelivered. */
  @NotNull private Duration writeTimeout = DEFAULT_WRITE_TIMEOUT;

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public int getConsumerThreads() {
    return consumerThreads;
  }

  public void setConsumerThreads(int consumerThreads) {
    this.consumerThreads = consumerThreads;
  }

  public Duration getWriteTimeout() {
    return writeTimeout;
  }

  public void setWriteTimeout(Duration writeTimeout) {
    this.writeTimeout = writeTimeout;
  }
}
