package dev.kairos.alarm.spring;

import dev.kairos.alarm.AlarmService;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** Settings of alarm de-duplication and delivery ({@code kairos.alarm.*}). */
@ConfigurationProperties("kairos.alarm")
public class AlarmProperties {

  public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(10);
  public static final int DEFAULT_MAX_KEYS = 10_000;
  public static final Duration DEFAULT_REDIS_TIMEOUT = Duration.ofSeconds(2);

  /** Whether alarms are de-duplicated and delivered at all; false leaves no AlarmSink bean. */
  private boolean enabled = true;

  /**
   * At most one alarm per key (kind and subject) is delivered within this window; cluster-wide
   * where the application has Redis (a KairosRedis bean), per process otherwise.
   */
  private Duration window = DEFAULT_WINDOW;

  /**
   * Most keys whose window this process remembers (the local windows: without Redis, or while Redis
   * does not answer); the least recently raised are forgotten first.
   */
  private int maxKeys = DEFAULT_MAX_KEYS;

  /**
   * Longest wait for the cluster-wide window in Redis; past it, or when Redis fails, this node
   * decides alone (counted in kairos.alarm.dedup.fallback) and may deliver a duplicate.
   */
  private Duration redisTimeout = DEFAULT_REDIS_TIMEOUT;

  /** Most deliveries queued, running or backing off at once; beyond it deliveries are dropped. */
  private int capacity = AlarmService.DEFAULT_CAPACITY;

  /** Delivery threads ({@code kairos-alarm-<n>}). */
  private int threads = AlarmService.DEFAULT_THREADS;

  /** How long closing waits for queued deliveries before abandoning them. */
  private Duration closeGrace = AlarmService.DEFAULT_CLOSE_GRACE;

  private final Log log = new Log();
  private final Webhook webhook = new Webhook();
  private final Email email = new Email();

  /** The log channel. */
  public static class Log {

    /** Whether every delivered alarm is also written as a WARN line to the node's log. */
    private boolean enabled = true;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /** Webhook channels: one per URL, each named {@code webhook-<index>}. */
  public static class Webhook {

    /** URLs alarms are POSTed to as JSON; empty means no webhook channel. Never logged whole. */
    private List<URI> urls = new ArrayList<>();

    /** Extra headers of every webhook request (for example Authorization); never logged. */
    private Map<String, String> headers = new LinkedHashMap<>();

    /** Key of the HMAC-SHA256 body signature header X-Kairos-Signature; empty means unsigned. */
    private String secret;

    /** Retries of a failed delivery (connection error, timeout, 408, 429, 5xx) before giving up. */
    private int retries = 3;

    /** Wait before the first retry; doubles with each further retry. */
    private Duration initialBackoff = Duration.ofSeconds(1);

    /** The longest wait between two retries. */
    private Duration maxBackoff = Duration.ofSeconds(30);

    /** Bound of the connection to the webhook host. */
    private Duration connectTimeout = Duration.ofSeconds(2);

    /** Bound of the wait for the response once the request is sent. */
    private Duration readTimeout = Duration.ofSeconds(5);

    public List<URI> getUrls() {
      return urls;
    }

    public void setUrls(List<URI> urls) {
      this.urls = urls;
    }

    public Map<String, String> getHeaders() {
      return headers;
    }

    public void setHeaders(Map<String, String> headers) {
      this.headers = headers;
    }

    public String getSecret() {
      return secret;
    }

    public void setSecret(String secret) {
      this.secret = secret;
    }

    public int getRetries() {
      return retries;
    }

    public void setRetries(int retries) {
      this.retries = retries;
    }

    public Duration getInitialBackoff() {
      return initialBackoff;
    }

    public void setInitialBackoff(Duration initialBackoff) {
      this.initialBackoff = initialBackoff;
    }

    public Duration getMaxBackoff() {
      return maxBackoff;
    }

    public void setMaxBackoff(Duration maxBackoff) {
      this.maxBackoff = maxBackoff;
    }

    public Duration getConnectTimeout() {
      return connectTimeout;
    }

    public void setConnectTimeout(Duration connectTimeout) {
      this.connectTimeout = connectTimeout;
    }

    public Duration getReadTimeout() {
      return readTimeout;
    }

    public void setReadTimeout(Duration readTimeout) {
      this.readTimeout = readTimeout;
    }
  }

  /** The email channel: active only where spring.mail.host is set and recipients are given. */
  public static class Email {

    /** Sender address; empty leaves it to the mail server (or spring.mail defaults). */
    private String from;

    /** Recipients, comma-separated; empty means no email channel. */
    private List<String> to = new ArrayList<>();

    /** Retries of a mail that could not be handed to the SMTP server. */
    private int retries = 2;

    /** Wait before the first retry; doubles with each further retry. */
    private Duration initialBackoff = Duration.ofSeconds(5);

    /** The longest wait between two retries. */
    private Duration maxBackoff = Duration.ofMinutes(1);

    public String getFrom() {
      return from;
    }

    public void setFrom(String from) {
      this.from = from;
    }

    public List<String> getTo() {
      return to;
    }

    public void setTo(List<String> to) {
      this.to = to;
    }

    public int getRetries() {
      return retries;
    }

    public void setRetries(int retries) {
      this.retries = retries;
    }

    public Duration getInitialBackoff() {
      return initialBackoff;
    }

    public void setInitialBackoff(Duration initialBackoff) {
      this.initialBackoff = initialBackoff;
    }

    public Duration getMaxBackoff() {
      return maxBackoff;
    }

    public void setMaxBackoff(Duration maxBackoff) {
      this.maxBackoff = maxBackoff;
    }
  }

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Duration getWindow() {
    return window;
  }

  public void setWindow(Duration window) {
    this.window = window;
  }

  public int getMaxKeys() {
    return maxKeys;
  }

  public void setMaxKeys(int maxKeys) {
    this.maxKeys = maxKeys;
  }

  public Duration getRedisTimeout() {
    return redisTimeout;
  }

  public void setRedisTimeout(Duration redisTimeout) {
    this.redisTimeout = redisTimeout;
  }

  public int getCapacity() {
    return capacity;
  }

  public void setCapacity(int capacity) {
    this.capacity = capacity;
  }

  public int getThreads() {
    return threads;
  }

  public void setThreads(int threads) {
    this.threads = threads;
  }

  public Duration getCloseGrace() {
    return closeGrace;
  }

  public void setCloseGrace(Duration closeGrace) {
    this.closeGrace = closeGrace;
  }

  public Log getLog() {
    return log;
  }

  public Webhook getWebhook() {
    return webhook;
  }

  public Email getEmail() {
    return email;
  }
}
