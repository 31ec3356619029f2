package dev.kairos.migrate.xxljob.mapping;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an xxl-job GLUE script becomes: a job of Kairos' built-in script handler ({@code
 * executor-builtin}'s {@code kairos.script}), whose params are the script. xxl-job runs a GLUE
 * script with the job's param as its first argument, so that stays the first argument.
 */
final class ScriptJob {

  static final String HANDLER = "kairos.script";

  private static final ObjectMapper JSON = new ObjectMapper();

  private ScriptJob() {}

  /** {@code {"interpreter":..,"script":..,"args":[param]}}, args only when the param is set. */
  static String params(String interpreter, String script, String param) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("interpreter", interpreter);
    params.put("script", script);
    if (!param.isEmpty()) {
      params.put("args", List.of(param));
    }
    try {
      return JSON.writeValueAsString(params);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a script job's params", e);
    }
  }
}
