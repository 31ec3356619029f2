package dev.kairos.console.api;

import java.util.LinkedHashMap;

/**
 * A JSON object of an API answer as the templates read it. The API leaves absent values out of its
 * JSON (a trigger that has not started has no {@code executor}); Thymeleaf's map access treats a
 * missing key as an error, so this map reports every key as present and reads absent ones as null,
 * which is what an omitted JSON field means.
 */
public final class ApiObject extends LinkedHashMap<String, Object> {

  @Override
  public boolean containsKey(Object key) {
    return key instanceof String;
  }
}
