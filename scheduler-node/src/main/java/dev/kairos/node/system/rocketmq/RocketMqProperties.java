package dev.kairos.node.system.rocketmq;

import dev.kairos.mq.route.RocketMqCredentials;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/** The RocketMQ cluster that carries triggers to executors ({@code kairos.rocketmq.*}). */
@Validated
@ConfigurationProperties("kairos.rocketmq")
public class RocketMqProperties {

  public static final String DEFAULT_NAME_SERVER = "127.0.0.1:9876";
  public static final String DEFAULT_PRODUCER_GROUP = "kairos-scheduler";
  public static final Duration DEFAULT_SEND_TIMEOUT = Duration.ofSeconds(3);
  public static final int DEFAULT_QUEUE_COUNT = 8;
  public static final Duration DEFAULT_ADMIN_TIMEOUT = Duration.ofSeconds(3);

  /** NameServer address list, {@code host:port} separated by ';'. */
  @NotBlank private String nameServer = DEFAULT_NAME_SERVER;

  /** Producer group of the scheduler nodes' trigger producer. */
  @NotBlank private String producerGroup = DEFAULT_PRODUCER_GROUP;

  /** How long one send may wait for the broker's acknowledgement before it counts as failed. */
  @NotNull private Duration sendTimeout = DEFAULT_SEND_TIMEOUT;

  /**
   * Queues per handler topic, which is also the number of executor slots per app (queue i belongs
   * to the executor in slot i).
   */
  @Min(1)
  @Max(1024)
  private int defaultQueueCount = DEFAULT_QUEUE_COUNT;

  /**
   * Timeout of administrative calls (health check, topic creation) to the NameServer and brokers.
   */
  @NotNull private Duration adminTimeout = DEFAULT_ADMIN_TIMEOUT;

  /**
   * RocketMQ ACL 2.0 user the node's trigger producer, result consumer and topic admin sign their
   * requests as (docs/security.md); blank (the default) signs nothing, for a broker without ACL.
   */
  private String accessKey = "";

  /** The password of {@link #accessKey}; never logged. Blank: none. */
  private String secretKey = "";

  public String getNameServer() {
    return nameServer;
  }

  public void setNameServer(String nameServer) {
    this.nameServer = nameServer;
  }

  public String getProducerGroup() {
    return producerGroup;
  }

  public void setProducerGroup(String producerGroup) {
    this.producerGroup = producerGroup;
  }

  public Duration getSendTimeout() {
    return sendTimeout;
  }

  public void setSendTimeout(Duration sendTimeout) {
    this.sendTimeout = sendTimeout;
  }

  public int getDefaultQueueCount() {
    return defaultQueueCount;
  }

  public void setDefaultQueueCount(int defaultQueueCount) {
    this.defaultQueueCount = defaultQueueCount;
  }

  public Duration getAdminTimeout() {
    return adminTimeout;
  }

  public void setAdminTimeout(Duration adminTimeout) {
    this.adminTimeout = adminTimeout;
  }

  public String getAccessKey() {
    return accessKey;
  }

  public void setAccessKey(String accessKey) {
    this.accessKey = accessKey;
  }

  public String getSecretKey() {
    return secretKey;
  }

  public void setSecretKey(String secretKey) {
    this.secretKey = secretKey;
  }

  /**
   * The credentials {@link #getAccessKey()} and {@link #getSecretKey()} describe.
   *
   * @throws IllegalArgumentException when only one of the two is set (never echoing the secret)
   */
  public RocketMqCredentials credentials() {
    try {
      return RocketMqCredentials.of(accessKey, secretKey);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "kairos.rocketmq.access-key and kairos.rocketmq.secret-key: " + e.getMessage(), e);
    }
  }
}
