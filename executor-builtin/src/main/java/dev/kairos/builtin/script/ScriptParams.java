package dev.kairos.builtin.script;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kairos.builtin.JsonParams;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The params of a script job, e.g. {@code {"interpreter":"bash","script":"set -e\npg_dump ...",
 * "args":["nightly"],"timeoutMs":600000}}. The params are the stored script: updating the job
 * updates the script.
 *
 * @param interpreter the program that runs the script file, as named in the allow-list
 * @param script the script's text, written to a file passed to the interpreter
 * @param args arguments after the script file ({@code $1...} in a shell)
 * @param timeout how long the run may take before its process tree is killed
 */
public record ScriptParams(String interpreter, String script, List<String> args, Duration timeout) {

  public static final Set<String> FIELDS = Set.of("interpreter", "script", "args", "timeoutMs");
  static final int MAX_ARGS = 64;

  /**
   * @throws dev.kairos.builtin.InvalidParamsException naming the field that is wrong
   */
  public static ScriptParams parse(String handler, String params, Duration defaultTimeout) {
    JsonParams json = JsonParams.parse(handler, params, FIELDS);
    String interpreter = json.requiredText("interpreter").trim();
    String script = json.requiredText("script");
    List<String> args = new ArrayList<>();
    JsonNode node = json.node("args");
    if (node != null) {
      if (!node.isArray()) {
        throw json.invalid("args", "must be a list of strings");
      }
      if (node.size() > MAX_ARGS) {
        throw json.invalid("args", "at most " + MAX_ARGS + " arguments, was " + node.size());
      }
      for (JsonNode arg : node) {
        if (!arg.isValueNode() || arg.isNull()) {
          throw json.invalid("args", "must be a list of strings, has " + arg);
        }
        if (arg.asText().indexOf('\0') >= 0) {
          throw json.invalid("args", "an argument contains a NUL character");
        }
        args.add(arg.asText());
      }
    }
    long timeoutMs = json.positiveMillis("timeoutMs", defaultTimeout.toMillis());
    return new ScriptParams(interpreter, script, List.copyOf(args), Duration.ofMillis(timeoutMs));
  }
}
