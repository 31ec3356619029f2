package dev.kairos.mq.route;

import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.remoting.RPCHook;

/**
 * The RocketMQ ACL credentials a Kairos client signs its broker requests with: a RocketMQ 5 (ACL
 * 2.0) user's name as {@code accessKey} and its password as {@code secretKey}. Both empty means
 * none ({@link #NONE}): clients are built exactly as without ACL.
 *
 * <p>{@link #toString()} shows the access key only, never the secret.
 */
public record RocketMqCredentials(String accessKey, String secretKey) {

  /** No credentials: the clients sign nothing (a broker without ACL). */
  public static final RocketMqCredentials NONE = new RocketMqCredentials("", "");

  /**
   * @param accessKey the user name; null or blank for none
   * @param secretKey its password; null or blank for none
   * @throws IllegalArgumentException when only one of the two is given
   */
  public RocketMqCredentials {
    accessKey = accessKey == null ? "" : accessKey.trim();
    secretKey = secretKey == null ? "" : secretKey;
    if (accessKey.isEmpty() != secretKey.isBlank()) {
      throw new IllegalArgumentException(
          "RocketMQ credentials need both an access key and a secret key, or neither (access key "
              + (accessKey.isEmpty() ? "missing" : "'" + accessKey + "'")
              + ", secret key "
              + (secretKey.isBlank() ? "missing" : "set")
              + ")");
    }
    if (secretKey.isBlank()) {
      secretKey = "";
    }
  }

  /** {@link #NONE} when both are null or blank. */
  public static RocketMqCredentials of(String accessKey, String secretKey) {
    return new RocketMqCredentials(accessKey, secretKey);
  }

  /** Whether requests are signed. */
  public boolean isConfigured() {
    return !accessKey.isEmpty();
  }

  /**
   * A new hook signing every request with these credentials, for the clients' {@code (group,
   * rpcHook)} constructors; null when none are configured, which those constructors treat exactly
   * as their hook-less forms.
   */
  public RPCHook rpcHook() {
    return isConfigured()
        ? new AclClientRPCHook(new SessionCredentials(accessKey, secretKey))
        : null;
  }

  @Override
  public String toString() {
    return isConfigured()
        ? "RocketMqCredentials[accessKey=" + accessKey + ", secretKey=****]"
        : "RocketMqCredentials[none]";
  }
}
