package dev.kairos.node.system.zookeeper;

import dev.kairos.node.cluster.TimingParameters;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.StringUtils;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;
import org.springframework.validation.annotation.Validated;

/**
 * The ZooKeeper ensemble used for membership and leader election ({@code kairos.zookeeper.*}).
 *
 * <p>It validates itself ({@link Validator}; Boot's binder runs it after the field constraints),
 * because whether {@code auth} is complete depends on two properties at once and the failure must
 * name the one that is missing.
 */
@Validated
@ConfigurationProperties("kairos.zookeeper")
public class ZookeeperProperties implements Validator {

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

  /** Digest authentication and creator-only znode ACLs; off while both of its fields are blank. */
  @NotNull private Auth auth = new Auth();

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

  public Auth getAuth() {
    return auth;
  }

  public void setAuth(Auth auth) {
    this.auth = auth;
  }

  @Override
  public boolean supports(Class<?> type) {
    return ZookeeperProperties.class.isAssignableFrom(type);
  }

  /**
   * Half a credential is refused rather than read as "off": an operator who set one of the two
   * meant to turn authentication on, and a node that silently ran with open ACLs would hide it.
   * Rejected values are only ever the blank or the user name, so the password never reaches the
   * failure report.
   */
  @Override
  public void validate(Object target, Errors errors) {
    Auth credentials = ((ZookeeperProperties) target).getAuth();
    if (credentials == null) {
      return; // reported by @NotNull
    }
    boolean user = StringUtils.hasText(credentials.getUsername());
    boolean password = StringUtils.hasText(credentials.getPassword());
    if (user && !password) {
      errors.rejectValue(
          "auth.password",
          "Required",
          "kairos.zookeeper.auth.password must be set when kairos.zookeeper.auth.username is"
              + " (both, or neither to turn ZooKeeper authentication off)");
    } else if (password && !user) {
      errors.rejectValue(
          "auth.username",
          "Required",
          "kairos.zookeeper.auth.username must be set when kairos.zookeeper.auth.password is"
              + " (both, or neither to turn ZooKeeper authentication off)");
    }
    if (user && credentials.getUsername().indexOf(':') >= 0) {
      // The digest provider splits "user:password" at the first ':'.
      errors.rejectValue(
          "auth.username", "Pattern", "kairos.zookeeper.auth.username must not contain ':'");
    }
  }

  /**
   * ZooKeeper digest credentials ({@code kairos.zookeeper.auth.*}). With them, the node
   * authenticates every session as {@code digest:<username>} and creates each znode with {@code
   * CREATOR_ALL_ACL}, so only clients holding the same credentials can read or change them.
   */
  public static class Auth {

    /**
     * Digest user name the node authenticates as; the same on every node of a cluster. Blank, with
     * a blank password, turns authentication off.
     */
    private String username = "";

    /** The user's password; never logged or shown. Must be set exactly when the username is. */
    private String password = "";

    /** Whether both halves are present, which is when the node authenticates. */
    public boolean hasCredentials() {
      return StringUtils.hasText(username) && StringUtils.hasText(password);
    }

    public String getUsername() {
      return username;
    }

    public void setUsername(String username) {
      this.username = username;
    }

    public String getPassword() {
      return password;
    }

    public void setPassword(String password) {
      this.password = password;
    }

    /** Says whether a password is set, never what it is. */
    @Override
    public String toString() {
      return "Auth[username="
          + username
          + ", password="
          + (StringUtils.hasText(password) ? "<set>" : "<blank>")
          + "]";
    }
  }
}
