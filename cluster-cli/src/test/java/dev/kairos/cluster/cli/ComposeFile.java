package dev.kairos.cluster.cli;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * A docker-compose.yml read with SnakeYAML (anchors and {@code <<} merge keys resolved), with the
 * accessors the checks need. Values are read as strings, the way compose passes them to a
 * container.
 */
final class ComposeFile {

  private final Map<String, Object> root;

  private ComposeFile(Map<String, Object> root) {
    this.root = root;
  }

  static ComposeFile read(Path file) {
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return new ComposeFile(map(new Yaml(new SafeConstructor(new LoaderOptions())).load(reader)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  Map<String, Object> services() {
    return map(root.get("services"));
  }

  Map<String, Object> service(String name) {
    Object service = services().get(name);
    if (service == null) {
      throw new AssertionError("docker-compose.yml has no service " + name);
    }
    return map(service);
  }

  Map<String, Object> topLevel(String key) {
    return map(root.get(key));
  }

  /** Services whose image starts with {@code prefix}. */
  List<String> servicesWithImage(String prefix) {
    List<String> names = new ArrayList<>();
    services()
        .forEach(
            (name, s) -> {
              if (String.valueOf(map(s).get("image")).startsWith(prefix)) {
                names.add(name);
              }
            });
    return names;
  }

  /** The service's environment as strings (map or {@code KEY=value} list form). */
  Map<String, String> environment(String service) {
    Object env = service(service).get("environment");
    Map<String, String> result = new LinkedHashMap<>();
    if (env instanceof Map<?, ?> m) {
      m.forEach((k, v) -> result.put(String.valueOf(k), String.valueOf(v)));
    } else if (env instanceof List<?> l) {
      for (Object entry : l) {
        String s = String.valueOf(entry);
        int eq = s.indexOf('=');
        result.put(s.substring(0, eq), s.substring(eq + 1));
      }
    }
    return result;
  }

  /** The service's command as one string. */
  String command(String service) {
    Object command = service(service).get("command");
    return command instanceof List<?> l
        ? String.join(" ", l.stream().map(String::valueOf).toList())
        : String.valueOf(command);
  }

  List<String> strings(String service, String key) {
    Object value = service(service).get(key);
    if (value instanceof List<?> l) {
      return l.stream().map(String::valueOf).toList();
    }
    return value == null ? List.of() : List.of(String.valueOf(value));
  }

  /** depends_on as service → condition ({@code service_started} for the short list form). */
  Map<String, String> dependsOn(String service) {
    Object deps = service(service).get("depends_on");
    Map<String, String> result = new LinkedHashMap<>();
    if (deps instanceof List<?> l) {
      l.forEach(d -> result.put(String.valueOf(d), "service_started"));
    } else if (deps instanceof Map<?, ?> m) {
      m.forEach((k, v) -> result.put(String.valueOf(k), String.valueOf(map(v).get("condition"))));
    }
    return result;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object value) {
    return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }
}
