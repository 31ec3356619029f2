package dev.kairos.security.token;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Makes token secrets and their hashes. A secret carries 256 random bits, so a plain SHA-256 is the
 * right hash (a slow KDF protects guessable passwords, not random keys) and lets every request be
 * checked with one Redis read. The {@code kairos_} prefix lets secret scanners recognise a leaked
 * token.
 */
public final class TokenSecrets {

  public static final String PREFIX = "kairos_";

  private static final SecureRandom RANDOM = new SecureRandom();

  private TokenSecrets() {}

  public static String newSecret() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  public static String newId() {
    byte[] bytes = new byte[8];
    RANDOM.nextBytes(bytes);
    return "tok_" + HexFormat.of().formatHex(bytes);
  }

  public static byte[] sha256(String secret) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  public static String sha256Hex(String secret) {
    return HexFormat.of().formatHex(sha256(secret));
  }
}
