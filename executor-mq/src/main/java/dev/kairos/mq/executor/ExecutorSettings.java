package dev.kairos.mq.executor;

import dev.kairos.core.secret.SecretParamsCipher;
import dev.kairos.mq.log.TriggerLogSettings;
import dev.kairos.mq.route.RocketMqCredentials;
import dev.kairos.mq.slot.SlotLeaseConfig;
import dev.kairos.protocol.start.TriggerRecords;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link KairosExecutor} runs.
 *
 * @param lease app, instance id, hosted handlers, Q and lease timing
 * @param nameServerAddress RocketMQ NameServer(s), {@code host:port[;host:port]}
 * @param workerThreads handler threads (at most this many jobs run at once)
 * @param maxInFlight received but unfinished deliveries before polling pauses (backpressure)
 * @param dedupWindow D; must equal the scheduler's
 * @param pollTimeout how long one poll waits for messages
 * @param shutdownGrace how long {@link KairosExecutor#close()} lets running handlers finish before
 *     it interrupts them (their results are still recorded and published)
 * @param resultReports which results go on the result topic besides the record in Redis
 * @param log how runs' log lines are shipped to their triggers' logs in Redis
 * @param routeTimeout how long {@link KairosExecutor#start()} waits for the NameServer to serve the
 *     handler topics' routes; a restarted NameServer knows none until the broker re-registers
 * @param secretParams opens the params' secrets the nodes sealed, right before the handler runs (a
 *     run whose params it cannot open fails, naming the key it lacks)
 * @param rocketMqCredentials the RocketMQ ACL user the consumer and the results producer sign their
 *     requests as ({@link RocketMqCredentials#NONE} for a broker without ACL)
 */
public record ExecutorSettings(
    SlotLeaseConfig lease,
    String nameServerAddress,
    int workerThreads,
    int maxInFlight,
    Duration dedupWindow,
    Duration pollTimeout,
    Duration shutdownGrace,
    ResultReports resultReports,
    TriggerLogSettings log,
    Duration routeTimeout,
    SecretParamsCipher secretParams,
    RocketMqCredentials rocketMqCredentials) {

  /**
   * A run holds its worker through the start claim's round trip, so under load the workers, not
   * Redis, capped the starts: 16 per executor held a burst of 5,000 fires a second to about 2,100
   * starts a second on the 2-core bench machine; 64 started every fire (docs/benchmarks.md §10).
   */
  public static final int DEFAULT_WORKER_THREADS = 64;

  public static final int DEFAULT_MAX_IN_FLIGHT = 1_000;
  public static final Duration DEFAULT_POLL_TIMEOUT = Duration.ofMillis(200);
  public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(10);

  /** Two of the broker's default registration periods (30 s). */
  public static final Duration DEFAULT_ROUTE_TIMEOUT = Duration.ofSeconds(60);

  public ExecutorSettings {
    Objects.requireNonNull(lease, "lease");
    Objects.requireNonNull(nameServerAddress, "nameServerAddress");
    Objects.requireNonNull(dedupWindow, "dedupWindow");
    Objects.requireNonNull(pollTimeout, "pollTimeout");
    Objects.requireNonNull(shutdownGrace, "shutdownGrace");
    Objects.requireNonNull(resultReports, "resultReports");
    Objects.requireNonNull(log, "log");
    Objects.requireNonNull(routeTimeout, "routeTimeout");
    Objects.requireNonNull(secretParams, "secretParams");
    Objects.requireNonNull(rocketMqCredentials, "rocketMqCredentials");
    if (shutdownGrace.isNegative()) {
      throw new IllegalArgumentException("shutdownGrace must not be negative");
    }
    if (workerThreads < 1 || maxInFlight < 1) {
      throw new IllegalArgumentException("workerThreads and maxInFlight must be >= 1");
    }
  }

  /** The defaults for {@code lease}'s app on {@code nameServerAddress}. */
  public static ExecutorSettings of(SlotLeaseConfig lease, String nameServerAddress) {
    return builder(lease, nameServerAddress).build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder(SlotLeaseConfig lease, String nameServerAddress) {
    return new Builder(lease, nameServerAddress);
  }

  /** A builder starting from these settings. */
  public Builder toBuilder() {
    return new Builder(lease, nameServerAddress)
        .workerThreads(workerThreads)
        .maxInFlight(maxInFlight)
        .dedupWindow(dedupWindow)
        .pollTimeout(pollTimeout)
        .shutdownGrace(shutdownGrace)
        .resultReports(resultReports)
        .log(log)
        .routeTimeout(routeTimeout)
        .secretParams(secretParams)
        .rocketMqCredentials(rocketMqCredentials);
  }

  /** These settings with another choice of published results. */
  public ExecutorSettings withResultReports(ResultReports reports) {
    return toBuilder().resultReports(reports).build();
  }

  /** These settings with another way of shipping log lines. */
  public ExecutorSettings withLog(TriggerLogSettings log) {
    return toBuilder().log(log).build();
  }

  /** These settings opening sealed params with {@code cipher}. */
  public ExecutorSettings withSecretParams(SecretParamsCipher cipher) {
    return toBuilder().secretParams(cipher).build();
  }

  /** These settings signing the RocketMQ requests with {@code credentials}. */
  public ExecutorSettings withRocketMqCredentials(RocketMqCredentials credentials) {
    return toBuilder().rocketMqCredentials(credentials).build();
  }

  /** Settings component by component; every one not set keeps its default. */
  public static final class Builder {
    private final SlotLeaseConfig lease;
    private final String nameServerAddress;
    private int workerThreads = DEFAULT_WORKER_THREADS;
    private int maxInFlight = DEFAULT_MAX_IN_FLIGHT;
    private Duration dedupWindow = TriggerRecords.DEFAULT_DEDUP_WINDOW;
    private Duration pollTimeout = DEFAULT_POLL_TIMEOUT;
    private Duration shutdownGrace = DEFAULT_SHUTDOWN_GRACE;
    private ResultReports resultReports = ResultReports.EXCEPTIONS;
    private TriggerLogSettings log = TriggerLogSettings.DEFAULTS;
    private Duration routeTimeout = DEFAULT_ROUTE_TIMEOUT;
    private SecretParamsCipher secretParams = SecretParamsCipher.none();
    private RocketMqCredentials rocketMqCredentials = RocketMqCredentials.NONE;

    private Builder(SlotLeaseConfig lease, String nameServerAddress) {
      this.lease = lease;
      this.nameServerAddress = nameServerAddress;
    }

    public Builder workerThreads(int workerThreads) {
      this.workerThreads = workerThreads;
      return this;
    }

    public Builder maxInFlight(int maxInFlight) {
      this.maxInFlight = maxInFlight;
      return this;
    }

    public Builder dedupWindow(Duration dedupWindow) {
      this.dedupWindow = dedupWindow;
      return this;
    }

    public Builder pollTimeout(Duration pollTimeout) {
      this.pollTimeout = pollTimeout;
      return this;
    }

    public Builder shutdownGrace(Duration shutdownGrace) {
      this.shutdownGrace = shutdownGrace;
      return this;
    }

    public Builder resultReports(ResultReports resultReports) {
      this.resultReports = resultReports;
      return this;
    }

    public Builder log(TriggerLogSettings log) {
      this.log = log;
      return this;
    }

    public Builder routeTimeout(Duration routeTimeout) {
      this.routeTimeout = routeTimeout;
      return this;
    }

    public Builder secretParams(SecretParamsCipher secretParams) {
      this.secretParams = secretParams;
      return this;
    }

    public Builder rocketMqCredentials(RocketMqCredentials rocketMqCredentials) {
      this.rocketMqCredentials = rocketMqCredentials;
      return this;
    }

    public ExecutorSettings build() {
      return new ExecutorSettings(
          lease,
          nameServerAddress,
          workerThreads,
          maxInFlight,
          dedupWindow,
          pollTimeout,
          shutdownGrace,
          resultReports,
          log,
          routeTimeout,
          secretParams,
          rocketMqCredentials);
    }
  }

  /** RocketMQ consumer group of the app: shared by its instances, so offsets follow the slot. */
  public String consumerGroup() {
    return "kairos_exec_" + lease.app().replaceAll("[^a-zA-Z0-9_-]", "-");
  }
}
