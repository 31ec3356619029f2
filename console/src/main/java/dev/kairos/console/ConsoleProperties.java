package dev.kairos.console;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The web console a node serves at {@code /console} ({@code kairos.console.*}). */
@ConfigurationProperties("kairos.console")
public class ConsoleProperties {

  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(30);
  public static final Duration DEFAULT_SAMPLE_INTERVAL = Duration.ofSeconds(5);
  public static final int DEFAULT_SAMPLES_KEPT = 120;
  public static final Duration DEFAULT_API_TIMEOUT = Duration.ofSeconds(10);

  /** Whether the node serves the console at {@code /console}. */
  private boolean enabled = true;

  /** A signed-in session that sees no request for this long is ended (sign in again). */
  private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;

  /** How often the dashboard samples the node's meters for its charts. */
  private Duration sampleInterval = DEFAULT_SAMPLE_INTERVAL;

  /** Dashboard samples kept in memory (120 × 5 s = the last 10 minutes). */
  private int samplesKept = DEFAULT_SAMPLES_KEPT;

  /** Timeout of one console call to the node's own admin API. */
  private Duration apiTimeout = DEFAULT_API_TIMEOUT;

  /**
   * Base URL of the admin API the console calls; empty means the local address and port of the
   * connector the console's request arrived on (plain HTTP). Set it when that connector is TLS.
   */
  private String apiBaseUrl = "";

  /** How people signed in through OpenID Connect get their role and apps. */
  private final Oidc oidc = new Oidc();

  public Oidc getOidc() {
    return oidc;
  }

  /**
   * The claim of the ID token (or user info) that lists a person's groups, and the prefix of the
   * groups that grant Kairos roles: {@code <prefix>admin}, {@code <prefix>viewer} (all apps),
   * {@code <prefix>operator:<app>}, {@code <prefix>viewer:<app>}.
   */
  public static class Oidc {

    private String groupsClaim = "groups";

    private String groupPrefix = "kairos:";

    public String getGroupsClaim() {
      return groupsClaim;
    }

    public void setGroupsClaim(String groupsClaim) {
      this.groupsClaim = groupsClaim;
    }

    public String getGroupPrefix() {
      return groupPrefix;
    }

    public void setGroupPrefix(String groupPrefix) {
      this.groupPrefix = groupPrefix;
    }
  }

  public String getApiBaseUrl() {
    return apiBaseUrl;
  }

  public void setApiBaseUrl(String apiBaseUrl) {
    this.apiBaseUrl = apiBaseUrl;
  }

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Duration getIdleTimeout() {
    return idleTimeout;
  }

  public void setIdleTimeout(Duration idleTimeout) {
    this.idleTimeout = idleTimeout;
  }

  public Duration getSampleInterval() {
    return sampleInterval;
  }

  public void setSampleInterval(Duration sampleInterval) {
    this.sampleInterval = sampleInterval;
  }

  public int getSamplesKept() {
    return samplesKept;
  }

  public void setSamplesKept(int samplesKept) {
    this.samplesKept = samplesKept;
  }

  public Duration getApiTimeout() {
    return apiTimeout;
  }

  public void setApiTimeout(Duration apiTimeout) {
    this.apiTimeout = apiTimeout;
  }
}
