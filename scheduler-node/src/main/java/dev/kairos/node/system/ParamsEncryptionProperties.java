package dev.kairos.node.system;

import dev.kairos.core.secret.SecretParamsCipher;
import dev.kairos.core.secret.SecretParamsKey;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How the secret fields of job params are sealed at rest ({@code kairos.params-encryption.*}; see
 * docs/security.md, "Secret params at rest").
 *
 * @param key the cluster's current params key, base64 of 32 random bytes ({@code openssl rand
 *     -base64 32}), the same on every node; empty (the default) stores params as written
 * @param previousKeys keys used before a rotation: values they sealed are still shown to writers
 *     and re-sealed with {@code key} when their job is next written
 */
@ConfigurationProperties("kairos.params-encryption")
public record ParamsEncryptionProperties(String key, List<String> previousKeys) {

  public ParamsEncryptionProperties {
    key = key == null ? "" : key.trim();
    previousKeys = previousKeys == null ? List.of() : List.copyOf(previousKeys);
  }

  /**
   * The cipher these settings describe.
   *
   * @throws IllegalArgumentException naming the property whose key is malformed (never its value)
   */
  public SecretParamsCipher cipher() {
    List<SecretParamsKey> previous =
        previousKeys.stream().map(k -> parse("kairos.params-encryption.previous-keys", k)).toList();
    if (key.isEmpty()) {
      if (!previous.isEmpty()) {
        throw new IllegalArgumentException(
            "kairos.params-encryption.previous-keys is set but kairos.params-encryption.key is"
                + " not: name the current key too");
      }
      return SecretParamsCipher.none();
    }
    return SecretParamsCipher.sealingWith(parse("kairos.params-encryption.key", key), previous);
  }

  private static SecretParamsKey parse(String property, String value) {
    try {
      return SecretParamsKey.parse(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(property + ": " + e.getMessage(), e);
    }
  }
}
