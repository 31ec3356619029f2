package dev.kairos.core.secret;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.kairos.core.log.SecretNames;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Seals the secret fields of job params for storage and opens them for the run. In params that are
 * a JSON object, every string value of a field whose name says it holds a secret ({@link
 * SecretNames}: {@code Authorization}, {@code token}, {@code password}, ...; at any depth, in
 * objects inside arrays too) is replaced by {@code kairos:sealed:v1:<key id>:<base64url>}:
 * AES-256-GCM with the job id as associated data, so a sealed value copied into another job does
 * not open. Everything else stays readable, so a reader sees which fields hold secrets and the rest
 * of the params as written.
 *
 * <p>The nonce is derived from the job id, the field's path and the value (a synthetic IV), so
 * sealing the same params twice gives the same text: writing a job back unchanged leaves it
 * unchanged, an import of the same definition is a no-op, and the audit's before and after differ
 * only where a secret did. What that reveals is only whether a field's value changed.
 *
 * <p>Nodes seal on every write (and re-seal values of an older key they still hold); executors open
 * right before the handler runs. Params that are not a JSON object, and values that are not
 * strings, are stored as written.
 */
public final class SecretParamsCipher {

  /** What every sealed value starts with. */
  public static final String PREFIX = "kairos:sealed:v1:";

  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SecretParamsCipher NONE = new SecretParamsCipher(null, List.of());

  private final SecretParamsKey sealing;
  private final Map<String, SecretParamsKey> opening;

  private SecretParamsCipher(SecretParamsKey sealing, List<SecretParamsKey> others) {
    this.sealing = sealing;
    Map<String, SecretParamsKey> byId = new LinkedHashMap<>();
    if (sealing != null) {
      byId.put(sealing.id(), sealing);
    }
    others.forEach(k -> byId.putIfAbsent(k.id(), k));
    this.opening = Map.copyOf(byId);
  }

  /** Seals nothing and opens nothing: params are stored as written. */
  public static SecretParamsCipher none() {
    return NONE;
  }

  /** Seals with {@code current}; opens what {@code current} or any of {@code previous} sealed. */
  public static SecretParamsCipher sealingWith(
      SecretParamsKey current, List<SecretParamsKey> previous) {
    return new SecretParamsCipher(Objects.requireNonNull(current, "current"), previous);
  }

  /** Seals nothing; opens what any of {@code keys} sealed (an executor's cipher). */
  public static SecretParamsCipher openingWith(List<SecretParamsKey> keys) {
    return keys.isEmpty() ? NONE : new SecretParamsCipher(null, keys);
  }

  /** Whether params hold a sealed value at all (a cheap test, no parsing). */
  public static boolean holdsSealed(String params) {
    return params != null && params.contains(PREFIX);
  }

  /** Whether this cipher seals (a node with a key configured). */
  public boolean seals() {
    return sealing != null;
  }

  /** The ids of the keys this cipher opens with, the sealing key first. */
  public List<String> keyIds() {
    return List.copyOf(opening.keySet());
  }

  /**
   * The params with every secret string sealed by the current key (already-sealed values of an
   * older key it holds are re-sealed); the params unchanged when nothing was to seal or this cipher
   * does not seal.
   */
  public String seal(String jobId, String params) {
    if (sealing == null) {
      return params;
    }
    ObjectNode root = object(params);
    if (root == null) {
      return params;
    }
    boolean changed = walk(root, "", true, jobId);
    return changed ? root.toString() : params;
  }

  /**
   * The params with every sealed value opened.
   *
   * @throws SecretParamsException when a value was sealed by a key this cipher lacks, or altered
   */
  public String open(String jobId, String params) {
    if (!holdsSealed(params)) {
      return params;
    }
    ObjectNode root = object(params);
    if (root == null) {
      return params;
    }
    walk(root, "", false, jobId);
    return root.toString();
  }

  /** {@link #open}, or the params as stored when a value cannot be opened here. */
  public String openIfPossible(String jobId, String params) {
    try {
      return open(jobId, params);
    } catch (SecretParamsException e) {
      return params;
    }
  }

  private boolean walk(ObjectNode object, String path, boolean seal, String jobId) {
    boolean changed = false;
    Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      String fieldPath = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
      JsonNode value = field.getValue();
      if (value.isTextual() && (SecretNames.isSecret(field.getKey()) || !seal)) {
        String replaced =
            seal
                ? sealed(jobId, fieldPath, value.textValue())
                : opened(jobId, fieldPath, value.textValue());
        if (!replaced.equals(value.textValue())) {
          field.setValue(TextNode.valueOf(replaced));
          changed = true;
        }
      } else if (value.isObject()) {
        changed |= walk((ObjectNode) value, fieldPath, seal, jobId);
      } else if (value.isArray()) {
        changed |= walk((ArrayNode) value, fieldPath, seal, jobId);
      }
    }
    return changed;
  }

  private boolean walk(ArrayNode array, String path, boolean seal, String jobId) {
    boolean changed = false;
    for (int i = 0; i < array.size(); i++) {
      JsonNode element = array.get(i);
      String elementPath = path + "[" + i + "]";
      if (element.isObject()) {
        changed |= walk((ObjectNode) element, elementPath, seal, jobId);
      } else if (element.isArray()) {
        changed |= walk((ArrayNode) element, elementPath, seal, jobId);
      } else if (!seal && element.isTextual()) {
        String opened = opened(jobId, elementPath, element.textValue());
        if (!opened.equals(element.textValue())) {
          array.set(i, TextNode.valueOf(opened));
          changed = true;
        }
      }
    }
    return changed;
  }

  private String sealed(String jobId, String path, String value) {
    if (value.startsWith(PREFIX)) {
      SecretParamsKey key = opening.get(keyIdOf(value));
      if (key == null || key == sealing) {
        return value; // sealed by the current key already, or by one this node cannot open
      }
      value = opened(jobId, path, value);
    }
    byte[] plain = value.getBytes(StandardCharsets.UTF_8);
    byte[] nonce =
        sealing.nonce(
            (jobId + '\0' + path + '\0' + value).getBytes(StandardCharsets.UTF_8), NONCE_BYTES);
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(
          Cipher.ENCRYPT_MODE, sealing.encryptionKey(), new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(jobId.getBytes(StandardCharsets.UTF_8));
      byte[] sealedBytes = cipher.doFinal(plain);
      ByteBuffer out = ByteBuffer.allocate(NONCE_BYTES + sealedBytes.length);
      out.put(nonce).put(sealedBytes);
      return PREFIX
          + sealing.id()
          + ":"
          + Base64.getUrlEncoder().withoutPadding().encodeToString(out.array());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/GCM is part of every JDK", e);
    }
  }

  private String opened(String jobId, String path, String value) {
    if (!value.startsWith(PREFIX)) {
      return value;
    }
    String keyId = keyIdOf(value);
    SecretParamsKey key = opening.get(keyId);
    if (key == null) {
      throw new SecretParamsException(
          "params field "
              + path
              + " is sealed with key "
              + keyId
              + ", which this process does not hold (it holds "
              + (opening.isEmpty() ? "none" : String.join(", ", opening.keySet()))
              + ")");
    }
    byte[] all;
    try {
      all = Base64.getUrlDecoder().decode(value.substring(PREFIX.length() + keyId.length() + 1));
    } catch (IllegalArgumentException e) {
      throw new SecretParamsException(
          "params field " + path + " is not a well-formed sealed value");
    }
    if (all.length < NONCE_BYTES + TAG_BITS / 8) {
      throw new SecretParamsException(
          "params field " + path + " is not a well-formed sealed value");
    }
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(
          Cipher.DECRYPT_MODE,
          key.encryptionKey(),
          new GCMParameterSpec(TAG_BITS, all, 0, NONCE_BYTES));
      cipher.updateAAD(jobId.getBytes(StandardCharsets.UTF_8));
      byte[] plain = cipher.doFinal(all, NONCE_BYTES, all.length - NONCE_BYTES);
      return new String(plain, StandardCharsets.UTF_8);
    } catch (AEADBadTagException e) {
      throw new SecretParamsException(
          "params field "
              + path
              + " does not open with key "
              + keyId
              + " for job "
              + jobId
              + " (altered, or sealed for another job)");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/GCM is part of every JDK", e);
    }
  }

  private static String keyIdOf(String sealedValue) {
    int end = sealedValue.indexOf(':', PREFIX.length());
    return end < 0 ? "" : sealedValue.substring(PREFIX.length(), end);
  }

  private static ObjectNode object(String params) {
    if (params == null || params.isEmpty()) {
      return null;
    }
    try {
      JsonNode root = JSON.readTree(params);
      return root != null && root.isObject() ? (ObjectNode) root : null;
    } catch (JsonProcessingException e) {
      return null;
    }
  }
}
