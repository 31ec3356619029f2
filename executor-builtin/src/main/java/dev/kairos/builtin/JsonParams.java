package dev.kairos.builtin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Set;

/**
 * Reads a built-in handler's params: one JSON object with known fields only (a misspelt field is an
 * error, not a silent default), every error naming the handler and the field.
 */
public final class JsonParams {

  /** The longest timeout a param may ask for: 7 days, as the admin API's job timeout. */
  public static final long MAX_TIMEOUT_MS = 604_800_000L;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String handler;
  private final ObjectNode object;

  private JsonParams(String handler, ObjectNode object) {
    this.handler = handler;
    this.object = object;
  }

  /**
   * @throws InvalidParamsException when {@code params} is not a JSON object or has a field outside
   *     {@code allowed}
   */
  public static JsonParams parse(String handler, String params, Set<String> allowed) {
    if (params == null || params.isBlank()) {
      throw new InvalidParamsException(
          handler, null, "params are empty; expected a JSON object with fields " + allowed);
    }
    JsonNode tree;
    try {
      tree = JSON.readTree(params);
    } catch (JsonProcessingException e) {
      throw new InvalidParamsException(
          handler, null, "params are not valid JSON: " + e.getOriginalMessage());
    }
    if (!(tree instanceof ObjectNode object)) {
      throw new InvalidParamsException(
          handler, null, "params must be a JSON object with fields " + allowed);
    }
    for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!allowed.contains(name)) {
        throw new InvalidParamsException(handler, name, "unknown field; the fields are " + allowed);
      }
    }
    return new JsonParams(handler, object);
  }

  /** The field's node, or null when it is absent or JSON null. */
  public JsonNode node(String field) {
    JsonNode node = object.get(field);
    return node == null || node.isNull() ? null : node;
  }

  /** A required string field that is not blank. */
  public String requiredText(String field) {
    String text = optionalText(field);
    if (text == null || text.isBlank()) {
      throw invalid(field, "is required");
    }
    return text;
  }

  /** An optional string field, or null. */
  public String optionalText(String field) {
    JsonNode node = node(field);
    if (node == null) {
      return null;
    }
    if (!node.isTextual()) {
      throw invalid(field, "must be a string");
    }
    return node.textValue();
  }

  /**
   * An optional whole number of milliseconds in 1..{@link #MAX_TIMEOUT_MS}, or {@code fallback}.
   */
  public long positiveMillis(String field, long fallback) {
    JsonNode node = node(field);
    if (node == null) {
      return fallback;
    }
    if (!node.isIntegralNumber()
        || !node.canConvertToLong()
        || node.longValue() <= 0
        || node.longValue() > MAX_TIMEOUT_MS) {
      throw invalid(
          field,
          "must be a whole number of milliseconds in 1.." + MAX_TIMEOUT_MS + ", was " + node);
    }
    return node.longValue();
  }

  /** An optional boolean, or {@code fallback}. */
  public boolean bool(String field, boolean fallback) {
    JsonNode node = node(field);
    if (node == null) {
      return fallback;
    }
    if (!node.isBoolean()) {
      throw invalid(field, "must be true or false, was " + node);
    }
    return node.booleanValue();
  }

  public InvalidParamsException invalid(String field, String reason) {
    return new InvalidParamsException(handler, field, reason);
  }
}
