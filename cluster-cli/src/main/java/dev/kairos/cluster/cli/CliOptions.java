package dev.kairos.cluster.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The command line of {@link LocalClusterCli}: a command ({@code up}, {@code status}, {@code down},
 * {@code drain <node>}) and options written {@code --name value} or {@code --name=value}.
 *
 * @param dir the cluster's folder: logs, pid files, the infrastructure's data, the admin token
 * @param nodes scheduler node JVMs ({@code up})
 * @param executors sample executor JVMs ({@code up})
 * @param basePort HTTP port of {@code node-1}; node k listens on basePort + k − 1
 * @param nodeJar the scheduler node's exec jar
 * @param executorJar the sample executor's exec jar
 * @param app the executor app the sample executors serve (their {@code kairos.executor.app})
 * @param jvmOptions options of every node and executor JVM
 * @param target the node a {@code drain} is for (e.g. {@code node-2}), else empty
 */
public record CliOptions(
    String command,
    Path dir,
    int nodes,
    int executors,
    int basePort,
    Path nodeJar,
    Path executorJar,
    String app,
    List<String> jvmOptions,
    String target) {

  static final List<String> COMMANDS = List.of("up", "status", "down", "drain");
  // MetaspaceSize: without it Serial GC runs 2-4 full collections of 120-370 ms while a node or
  // executor loads its classes (docs/operations.md, section 3).
  static final List<String> DEFAULT_JVM_OPTIONS =
      List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:MetaspaceSize=128m", "-Xss512k");
  private static final Set<String> NAMES =
      Set.of("dir", "nodes", "executors", "base-port", "node-jar", "executor-jar", "app", "jvm");

  public CliOptions {
    if (!COMMANDS.contains(command)) {
      throw new IllegalArgumentException("unknown command '" + command + "'\n" + usage());
    }
    if (nodes < 1 || executors < 0) {
      throw new IllegalArgumentException("need --nodes ≥ 1 and --executors ≥ 0");
    }
    if (basePort < 1024 || basePort + nodes > 65535) {
      throw new IllegalArgumentException("--base-port must leave room for every node: " + basePort);
    }
    jvmOptions = List.copyOf(jvmOptions);
    if (command.equals("drain") && target.isEmpty()) {
      throw new IllegalArgumentException("drain needs the node to drain, e.g. node-2\n" + usage());
    }
  }

  /** Parses {@code args}; the first is the command. */
  public static CliOptions parse(String... args) {
    if (args.length == 0) {
      throw new IllegalArgumentException("no command\n" + usage());
    }
    Map<String, String> given = new HashMap<>();
    List<String> rest = new ArrayList<>(Arrays.asList(args).subList(1, args.length));
    String target = "";
    if (args[0].equals("drain") && !rest.isEmpty() && !rest.get(0).startsWith("--")) {
      target = rest.remove(0);
    }
    for (int i = 0; i < rest.size(); i++) {
      String arg = rest.get(i);
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("expected --name value, got '" + arg + "'\n" + usage());
      }
      int eq = arg.indexOf('=');
      String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
      String value;
      if (eq >= 0) {
        value = arg.substring(eq + 1);
      } else if (i + 1 < rest.size()) {
        value = rest.get(++i);
      } else {
        throw new IllegalArgumentException("--" + name + " needs a value\n" + usage());
      }
      if (!NAMES.contains(name)) {
        throw new IllegalArgumentException("unknown option --" + name + "\n" + usage());
      }
      given.put(name, value);
    }
    return new CliOptions(
        args[0],
        Path.of(given.getOrDefault("dir", "target/local-cluster")).toAbsolutePath(),
        Integer.parseInt(given.getOrDefault("nodes", "3")),
        Integer.parseInt(given.getOrDefault("executors", "2")),
        Integer.parseInt(given.getOrDefault("base-port", "8080")),
        Path.of(
            given.getOrDefault(
                "node-jar", "scheduler-node/target/kairos-scheduler-node-0.1.0-SNAPSHOT-exec.jar")),
        Path.of(
            given.getOrDefault(
                "executor-jar",
                "examples/demo-executor/target/kairos-demo-executor-0.1.0-SNAPSHOT-exec.jar")),
        given.getOrDefault("app", "demo"),
        given.containsKey("jvm")
            ? Arrays.stream(given.get("jvm").split(" ")).filter(s -> !s.isBlank()).toList()
            : DEFAULT_JVM_OPTIONS,
        target);
  }

  static String usage() {
    return """
    usage: local-cluster.sh up|status|down [options]
           local-cluster.sh drain <node> [--dir D]   drain the node (hands its wheel over), it then exits
      --nodes N          scheduler node JVMs (up; default 3)
      --executors M      sample executor JVMs (up; default 2)
      --base-port P      HTTP port of node-1, node k gets P+k-1 (default 8080)
      --dir D            logs, pid files and data (default target/local-cluster)
      --node-jar J       the node's exec jar (default scheduler-node/target/...-exec.jar)
      --executor-jar J   the sample executor's exec jar (default examples/demo-executor/target/...-exec.jar)
      --app A            executor app of the sample executors (default demo)
      --jvm "OPTS"       options of each node and executor JVM (default "%s")\
    """
        .formatted(String.join(" ", DEFAULT_JVM_OPTIONS));
  }
}
