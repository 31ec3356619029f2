package dev.kairos.drills.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The options of the cluster a bench starts, which {@link ClusterBenchOptions} and {@link
 * ScaleBenchOptions} share as a picocli mixin ({@code @Mixin}), so both commands name, default and
 * check them alike: the JVMs, the queues, the child JVMs' options and Redis' {@code CONFIG SET}
 * pairs. {@link #check} runs after parsing; {@link #shape} makes the {@link ClusterShape}.
 */
final class TopologyOptions {

  /**
   * The node and executor JVMs' default options, comma-separated as the option takes them: those a
   * deployment would use, not the drills' C1-only 256 MB (docs/benchmarks.md, section 10).
   */
  static final String DEFAULT_CHILD_JVM =
      "-Xmx512m,-XX:+UseSerialGC,-XX:MetaspaceSize=128m,-Xss512k,"
          + "-XX:-UseDynamicNumberOfCompilerThreads";

  @Option(
      names = "--nodes",
      paramLabel = "N",
      defaultValue = "2",
      description = "Scheduler node JVMs.")
  private int nodes;

  @Option(
      names = "--executors",
      paramLabel = "N",
      defaultValue = "2",
      description = "Executor JVMs.")
  private int executors;

  @Option(
      names = "--queues",
      paramLabel = "N",
      defaultValue = "4",
      description = "Queues per handler topic (= executor slots).")
  private int queues;

  @Option(
      names = "--child-jvm",
      paramLabel = "OPTION,...",
      defaultValue = DEFAULT_CHILD_JVM,
      description = "The node and executor JVMs' options, comma-separated.")
  private String childJvm;

  @Option(
      names = "--redis-config",
      defaultValue = "",
      paramLabel = "name:value,...",
      description = "CONFIG SET pairs applied before the nodes start, e.g. rdbcompression:no.")
  private String redisConfigText;

  private Map<String, String> redisConfig = Map.of();

  /**
   * Checks the values and parses {@code --redis-config}; throws {@link ParameterException} on
   * {@code cl} (its message names the option).
   */
  void check(CommandLine cl) {
    require(cl, nodes >= 1, "--nodes must be at least 1");
    require(cl, executors >= 1 && queues >= executors, "need 1 ≤ --executors ≤ --queues (slots)");
    Map<String, String> config = new LinkedHashMap<>();
    for (String pair : redisConfigText.split(",")) {
      if (pair.isBlank()) {
        continue;
      }
      int colon = pair.indexOf(':');
      require(
          cl,
          colon > 0,
          "--redis-config takes name:value pairs separated by commas, got '" + pair + "'");
      config.put(pair.substring(0, colon).trim(), pair.substring(colon + 1).trim());
    }
    redisConfig = config;
  }

  private static void require(CommandLine cl, boolean ok, String message) {
    if (!ok) {
      throw new ParameterException(cl, message);
    }
  }

  /** The cluster of these options, with persistence-sync on or off and that many shards. */
  ClusterShape shape(boolean sync, int shards) {
    return new ClusterShape(nodes, executors, queues, sync, shards, childJvmOptions(), redisConfig);
  }

  int nodes() {
    return nodes;
  }

  int executors() {
    return executors;
  }

  int queues() {
    return queues;
  }

  List<String> childJvmOptions() {
    return Arrays.stream(childJvm.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }

  /** The {@code CONFIG SET} pairs in order; empty before {@link #check}. */
  Map<String, String> redisConfig() {
    return redisConfig;
  }
}
