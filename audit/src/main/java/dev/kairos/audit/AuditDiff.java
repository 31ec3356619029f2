package dev.kairos.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The fields that differ between two job definitions (JSON objects), computed when an entry is read
 * rather than stored, so the stored before and after stay the one truth. Top-level fields only: a
 * changed {@code retryBackoff} is one change carrying both objects. A field absent on one side is
 * {@code null} there. A side that is absent (created, deleted) or not a JSON object counts as an
 * empty object, so a creation lists every field it set.
 */
public final class AuditDiff {

  /** One changed field, with its value before and after as JSON. */
  public record FieldChange(String field, JsonNode before, JsonNode after) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private AuditDiff() {}

  public static List<FieldChange> of(String beforeJson, String afterJson) {
    JsonNode before = object(beforeJson);
    JsonNode after = object(afterJson);
    Set<String> names = new LinkedHashSet<>();
    before.fieldNames().forEachRemaining(names::add);
    after.fieldNames().forEachRemaining(names::add);
    List<FieldChange> changes = new ArrayList<>();
    for (String name : names) {
      JsonNode old = valueOf(before, name);
      JsonNode now = valueOf(after, name);
      if (!old.equals(now)) {
        changes.add(new FieldChange(name, old, now));
      }
    }
    return changes;
  }

  /** The names of {@link #of}'s changes, in order. */
  public static List<String> fieldNames(List<FieldChange> changes) {
    return changes.stream().map(FieldChange::field).toList();
  }

  private static JsonNode valueOf(JsonNode object, String name) {
    JsonNode value = object.get(name);
    return value == null ? NullNode.getInstance() : value;
  }

  private static JsonNode object(String json) {
    if (json == null || json.isBlank()) {
      return JSON.createObjectNode();
    }
    try {
      JsonNode node = JSON.readTree(json);
      return node != null && node.isObject() ? node : JSON.createObjectNode();
    } catch (JsonProcessingException e) {
      return JSON.createObjectNode();
    }
  }
}
