package dev.kairos.core.secret;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A cluster key for the secret fields of job params: 32 random bytes, configured as base64 on the
 * nodes (which seal) and the executors (which open). Its {@link #id()} is written beside every
 * value it sealed, so a holder of several keys (after a rotation) knows which one opens a value and
 * one without it can say which key it lacks without revealing anything about the key.
 */
public final class SecretParamsKey {

  private static final int KEY_BYTES = 32;

  private final String id;
  private final byte[] encryptionKey;
  private final byte[] ivKey;

  private SecretParamsKey(byte[] key) {
    this.id = HexFormat.of().formatHex(sha256(concat("kairos-params-key-id:", key)), 0, 4);
    // Two keys derived from one, so the key that makes nonces never encrypts.
    this.encryptionKey = hmac(key, "kairos params encryption");
    this.ivKey = hmac(key, "kairos params nonce");
  }

  /**
   * Reads a key written as base64 (standard or URL-safe) of exactly 32 bytes ({@code openssl rand
   * -base64 32}).
   *
   * @throws IllegalArgumentException naming what is wrong, never echoing the value
   */
  public static SecretParamsKey parse(String base64) {
    if (base64 == null || base64.isBlank()) {
      throw new IllegalArgumentException("a params key must not be empty");
    }
    byte[] key;
    try {
      String trimmed = base64.trim();
      key =
          trimmed.contains("-") || trimmed.contains("_")
              ? Base64.getUrlDecoder().decode(trimmed)
              : Base64.getDecoder().decode(trimmed);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("a params key must be base64 (openssl rand -base64 32)");
    }
    if (key.length != KEY_BYTES) {
      throw new IllegalArgumentException(
          "a params key must be 32 bytes of base64 (openssl rand -base64 32) but has "
              + key.length
              + " bytes");
    }
    SecretParamsKey parsed = new SecretParamsKey(key);
    Arrays.fill(key, (byte) 0);
    return parsed;
  }

  /** Eight hex digits naming this key, safe to log and to store beside what it sealed. */
  public String id() {
    return id;
  }

  SecretKeySpec encryptionKey() {
    return new SecretKeySpec(encryptionKey, "AES");
  }

  byte[] nonce(byte[] input, int length) {
    return Arrays.copyOf(hmac(ivKey, input), length);
  }

  @Override
  public String toString() {
    return "SecretParamsKey[" + id + "]";
  }

  private static byte[] hmac(byte[] key, String label) {
    return hmac(key, label.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] hmac(byte[] key, byte[] input) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(input);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  private static byte[] sha256(byte[] input) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(input);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  private static byte[] concat(String label, byte[] key) {
    byte[] prefix = label.getBytes(StandardCharsets.UTF_8);
    byte[] all = Arrays.copyOf(prefix, prefix.length + key.length);
    System.arraycopy(key, 0, all, prefix.length, key.length);
    return all;
  }
}
