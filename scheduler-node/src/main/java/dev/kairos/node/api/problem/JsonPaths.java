package dev.kairos.node.api.problem;

import com.fasterxml.jackson.databind.JsonMappingException;
import java.util.List;

/** Renders Jackson's path of a bad value as the JSON path a client wrote: {@code jobs[2].zone}. */
final class JsonPaths {

  private static final int MAX_VALUE_LENGTH = 80;

  private JsonPaths() {}

  static String of(List<JsonMappingException.Reference> path) {
    StringBuilder out = new StringBuilder();
    for (JsonMappingException.Reference ref : path) {
      if (ref.getFieldName() != null) {
        if (!out.isEmpty()) {
          out.append('.');
        }
        out.append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        out.append('[').append(ref.getIndex()).append(']');
      }
    }
    return out.isEmpty() ? "(body)" : out.toString();
  }

  /** A rejected value for a message, bounded so a megabyte of junk is not echoed back. */
  static String quote(Object value) {
    String text = String.valueOf(value);
    if (text.length() > MAX_VALUE_LENGTH) {
      text = text.substring(0, MAX_VALUE_LENGTH - 3) + "...";
    }
    return value instanceof String ? "'" + text + "'" : text;
  }
}
