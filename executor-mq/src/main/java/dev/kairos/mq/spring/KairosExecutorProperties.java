package dev.kairos.mq.spring;

import dev.kairos.core.redis.ReplicaWait;
import dev.kairos.core.secret.SecretParamsCipher;
import dev.kairos.core.secret.SecretParamsKey;
import dev.kairos.mq.executor.ExecutorSettings;
import dev.kairos.mq.executor.ResultReports;
import dev.kairos.mq.log.TriggerLogSettings;
import dev.kairos.mq.route.RocketMqCredentials;
import dev.kairos.mq.slot.SlotLeaseConfig;
import dev.kairos.protocol.start.TriggerRecords;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** How the executor of a Spring Boot application runs ({@code kairos.executor.*}). */
@ConfigurationProperties("kairos.executor")
public class KairosExecutorProperties {

  public static final String DEFAULT_REDIS_URI = "redis://127.0.0.1:6379";
  public static final Duration DEFAULT_REDIS_TIMEOUT = Duration.ofSeconds(2);
  public static final String DEFAULT_NAME_SERVER = "127.0.0.1:9876";
  public static final String DEFAULT_BROKER_CLUSTER = "DefaultCluster";
  public static final Duration DEFAULT_TOPIC_TIMEOUT = ExecutorSettings.DEFAULT_ROUTE_TIMEOUT;

  /** Whether the executor starts; false leaves @KairosJob methods as plain methods. */
  private boolean enabled = true;

  /** The executor app the handlers belong to; jobs name it. Required when a handler exists. */
  private String app;

  /** This process's instance id in slot leases and results; blank means a random UUID. */
  private String instanceId = "";

  /** Host shown to operators in the slot lease; blank means the local host name. */
  private String host = "";

  /** Where the executor claims slots and trigger starts. */
  private final Redis redis = new Redis();

  /** How runs' log lines reach their triggers' logs ({@code GET /api/v1/triggers/{id}/log}). */
  private final Log log = new Log();

  /** RocketMQ NameServer addresses, {@code host:port} separated by {@code ;}. */
  private String nameServer = DEFAULT_NAME_SERVER;

  /** RocketMQ broker cluster on which missing handler topics are created. */
  private String brokerCluster = DEFAULT_BROKER_CLUSTER;

  /**
   * RocketMQ ACL 2.0 user the executor's consumer, results producer and topic admin sign their
   * requests as (docs/security.md); blank (the default) signs nothing, for a broker without ACL.
   */
  private String rocketmqAccessKey = "";

  /** The password of {@link #rocketmqAccessKey}; never logged. Blank: none. */
  private String rocketmqSecretKey = "";

  /** Whether the executor creates its handler topics (with slot-count queues) before starting. */
  private boolean createTopics = true;

  /**
   * How long start waits for the NameServer to list the brokers and serve the handler topics'
   * routes (after a NameServer restart the brokers re-register within their 30 s period).
   */
  private Duration topicTimeout = DEFAULT_TOPIC_TIMEOUT;

  /** Q: queues per handler topic, and the most instances of the app that consume at once. */
  private int slotCount = SlotLeaseConfig.DEFAULT_SLOT_COUNT;

  /** Lifetime of the slot lease after each renewal, judged by Redis time. */
  private Duration leaseTtl = SlotLeaseConfig.DEFAULT_TTL;

  /** How often the slot lease is renewed; twice it must fit in lease-ttl minus the margin. */
  private Duration leaseRenewInterval = SlotLeaseConfig.DEFAULT_RENEW_INTERVAL;

  /** How much earlier than the TTL the instance stops trusting its lease. */
  private Duration leaseSafetyMargin = SlotLeaseConfig.DEFAULT_SAFETY_MARGIN;

  /** Handler threads: at most this many runs at once. */
  private int workerThreads = ExecutorSettings.DEFAULT_WORKER_THREADS;

  /** Received but unfinished deliveries before polling pauses. */
  private int maxInFlight = ExecutorSettings.DEFAULT_MAX_IN_FLIGHT;

  /** Dedup window D: must equal the scheduler's. */
  private Duration dedupWindow = TriggerRecords.DEFAULT_DEDUP_WINDOW;

  /** How long one poll of the broker waits for messages. */
  private Duration pollTimeout = ExecutorSettings.DEFAULT_POLL_TIMEOUT;

  /** How long a stopping executor lets running handlers finish before interrupting them. */
  private Duration shutdownGrace = ExecutorSettings.DEFAULT_SHUTDOWN_GRACE;

  /**
   * Which results go on the result topic: EXCEPTIONS (only those Redis does not already hold, and
   * reports about copies) or ALL (every run's result too).
   */
  private ResultReports resultReports = ResultReports.EXCEPTIONS;

  /**
   * The cluster's params keys (base64 of 32 bytes each: {@code kairos.params-encryption.key} of the
   * nodes, and during a rotation the previous ones too), to open the secrets the nodes sealed.
   * Empty (the default): params are handed over as stored, and a run whose params hold a sealed
   * value fails naming the key it lacks.
   */
  private List<String> paramsKeys = new ArrayList<>();

  /** The Redis deployment shared with the scheduler ({@code kairos.executor.redis.*}). */
  /**
   * {@code kairos.executor.log.*}: shipping of handler log lines, see {@link TriggerLogSettings}.
   */
  public static class Log {

    /** Whether runs' log lines are shipped to Redis as the run goes. */
    private boolean enabled = true;

    /** Most lines kept per trigger; the next one becomes a truncation marker. */
    private int maxLines = TriggerLogSettings.DEFAULT_MAX_LINES;

    /** Most bytes of text (UTF-8) kept per trigger. */
    private int maxBytes = TriggerLogSettings.DEFAULT_MAX_BYTES;

    /** A longer line is cut to this many characters. */
    private int maxLineChars = TriggerLogSettings.DEFAULT_MAX_LINE_CHARS;

    /** How often the flusher ships every run's pending lines in one pipeline. */
    private Duration flushInterval = TriggerLogSettings.DEFAULT_FLUSH_INTERVAL;

    /** Pending lines (all runs) that wake the flusher before the interval. */
    private int flushLines = TriggerLogSettings.DEFAULT_FLUSH_LINES;

    /** How long a trigger's log stays in Redis after its last line; PostgreSQL keeps it after. */
    private Duration ttl = TriggerLogSettings.DEFAULT_TTL;

    /**
     * Whether what a handler logs through its own SLF4J loggers on the worker thread joins its
     * trigger's log (a Logback appender on the root logger; only with Logback).
     */
    private boolean captureSlf4j = true;

    public TriggerLogSettings settings() {
      return new TriggerLogSettings(
          enabled, maxLines, maxBytes, maxLineChars, flushInterval, flushLines, ttl);
    }

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public int getMaxLines() {
      return maxLines;
    }

    public void setMaxLines(int maxLines) {
      this.maxLines = maxLines;
    }

    public int getMaxBytes() {
      return maxBytes;
    }

    public void setMaxBytes(int maxBytes) {
      this.maxBytes = maxBytes;
    }

    public int getMaxLineChars() {
      return maxLineChars;
    }

    public void setMaxLineChars(int maxLineChars) {
      this.maxLineChars = maxLineChars;
    }

    public Duration getFlushInterval() {
      return flushInterval;
    }

    public void setFlushInterval(Duration flushInterval) {
      this.flushInterval = flushInterval;
    }

    public int getFlushLines() {
      return flushLines;
    }

    public void setFlushLines(int flushLines) {
      this.flushLines = flushLines;
    }

    public Duration getTtl() {
      return ttl;
    }

    public void setTtl(Duration ttl) {
      this.ttl = ttl;
    }

    public boolean isCaptureSlf4j() {
      return captureSlf4j;
    }

    public void setCaptureSlf4j(boolean captureSlf4j) {
      this.captureSlf4j = captureSlf4j;
    }
  }

  public static class Redis {

    /** Redis URIs: one for a standalone server, any number of seed nodes for a cluster. */
    private List<String> uris = new ArrayList<>(List.of(DEFAULT_REDIS_URI));

    /** Whether the URIs point at a Redis Cluster. */
    private boolean cluster;

    /** Command timeout. */
    private Duration timeout = DEFAULT_REDIS_TIMEOUT;

    /**
     * Replicas that must acknowledge each start-claim script before its handlers run ({@code WAIT}
     * after it, one per script call); 0 sends no WAIT. Fewer acknowledgements proceed, counted in
     * {@code kairos.redis.wait.unacknowledged}.
     */
    private int waitReplicas = 0;

    /** How long one WAIT may block; must be shorter than the command timeout. */
    private Duration waitTimeout = ReplicaWait.DEFAULT_TIMEOUT;

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
  }

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public String getApp() {
    return app;
  }

  public void setApp(String app) {
    this.app = app;
  }

  public String getInstanceId() {
    return instanceId;
  }

  public void setInstanceId(String instanceId) {
    this.instanceId = instanceId;
  }

  public String getHost() {
    return host;
  }

  public void setHost(String host) {
    this.host = host;
  }

  public Log getLog() {
    return log;
  }

  public Redis getRedis() {
    return redis;
  }

  public String getNameServer() {
    return nameServer;
  }

  public void setNameServer(String nameServer) {
    this.nameServer = nameServer;
  }

  public String getRocketmqAccessKey() {
    return rocketmqAccessKey;
  }

  public void setRocketmqAccessKey(String rocketmqAccessKey) {
    this.rocketmqAccessKey = rocketmqAccessKey;
  }

  public String getRocketmqSecretKey() {
    return rocketmqSecretKey;
  }

  public void setRocketmqSecretKey(String rocketmqSecretKey) {
    this.rocketmqSecretKey = rocketmqSecretKey;
  }

  /**
   * The credentials {@link #getRocketmqAccessKey()} and {@link #getRocketmqSecretKey()} describe.
   *
   * @throws IllegalArgumentException when only one of the two is set (never echoing the secret)
   */
  public RocketMqCredentials rocketMqCredentials() {
    try {
      return RocketMqCredentials.of(rocketmqAccessKey, rocketmqSecretKey);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "kairos.executor.rocketmq-access-key and kairos.executor.rocketmq-secret-key: "
              + e.getMessage(),
          e);
    }
  }

  public List<String> getParamsKeys() {
    return paramsKeys;
  }

  public void setParamsKeys(List<String> paramsKeys) {
    this.paramsKeys = paramsKeys == null ? new ArrayList<>() : new ArrayList<>(paramsKeys);
  }

  /**
   * The cipher {@link #getParamsKeys()} describe.
   *
   * @throws IllegalArgumentException when a key is malformed (never echoing it)
   */
  public SecretParamsCipher secretParams() {
    List<SecretParamsKey> keys = new ArrayList<>();
    for (int i = 0; i < paramsKeys.size(); i++) {
      try {
        keys.add(SecretParamsKey.parse(paramsKeys.get(i)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "kairos.executor.params-keys[" + i + "]: " + e.getMessage(), e);
      }
    }
    return SecretParamsCipher.openingWith(keys);
  }

  public String getBrokerCluster() {
    return brokerCluster;
  }

  public void setBrokerCluster(String brokerCluster) {
    this.brokerCluster = brokerCluster;
  }

  public boolean isCreateTopics() {
    return createTopics;
  }

  public void setCreateTopics(boolean createTopics) {
    this.createTopics = createTopics;
  }

  public Duration getTopicTimeout() {
    return topicTimeout;
  }

  public void setTopicTimeout(Duration topicTimeout) {
    this.topicTimeout = topicTimeout;
  }

  public int getSlotCount() {
    return slotCount;
  }

  public void setSlotCount(int slotCount) {
    this.slotCount = slotCount;
  }

  public Duration getLeaseTtl() {
    return leaseTtl;
  }

  public void setLeaseTtl(Duration leaseTtl) {
    this.leaseTtl = leaseTtl;
  }

  public Duration getLeaseRenewInterval() {
    return leaseRenewInterval;
  }

  public void setLeaseRenewInterval(Duration leaseRenewInterval) {
    this.leaseRenewInterval = leaseRenewInterval;
  }

  public Duration getLeaseSafetyMargin() {
    return leaseSafetyMargin;
  }

  public void setLeaseSafetyMargin(Duration leaseSafetyMargin) {
    this.leaseSafetyMargin = leaseSafetyMargin;
  }

  public int getWorkerThreads() {
    return workerThreads;
  }

  public void setWorkerThreads(int workerThreads) {
    this.workerThreads = workerThreads;
  }

  public int getMaxInFlight() {
    return maxInFlight;
  }

  public void setMaxInFlight(int maxInFlight) {
    this.maxInFlight = maxInFlight;
  }

  public Duration getDedupWindow() {
    return dedupWindow;
  }

  public void setDedupWindow(Duration dedupWindow) {
    this.dedupWindow = dedupWindow;
  }

  public Duration getPollTimeout() {
    return pollTimeout;
  }

  public void setPollTimeout(Duration pollTimeout) {
    this.pollTimeout = pollTimeout;
  }

  public Duration getShutdownGrace() {
    return shutdownGrace;
  }

  public void setShutdownGrace(Duration shutdownGrace) {
    this.shutdownGrace = shutdownGrace;
  }

  public ResultReports getResultReports() {
    return resultReports;
  }

  public void setResultReports(ResultReports resultReports) {
    this.resultReports = resultReports;
  }
}
