package dev.kairos.drills.bench;

import dev.kairos.core.redis.RedisKeys;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@link ScaleBench}'s command line, {@code --name=value} (picocli): the levels, the import's
 * callers, the API probe's budget, the topology. {@link #parse} checks the values together; {@link
 * #usage()} prints every option with its default. Passed through Maven as {@code
 * -Dbench.args="..."} (the {@code scale-bench} profile of {@code drills/pom.xml}).
 */
@Command(
    name = "ScaleBench",
    showDefaultValues = true,
    abbreviateSynopsis = true,
    sortOptions = false,
    usageHelpWidth = 100,
    description = {
      "Scale benchmark of the deployed topology (docs/benchmarks.md, section 11): the store grows"
          + " level by level (the mix of ScaleMix, imported through the API while the cluster"
          + " fires); at each level: import time, memory per job (Redis, PostgreSQL, heaps), the"
          + " leader's scan pass, a top-of-minute burst, a rebuild of an emptied Redis from"
          + " PostgreSQL, and the API's lists, searches and export.",
      ""
    })
final class ScaleBenchOptions {

  @Option(
      names = "--levels",
      split = ",",
      paramLabel = "N",
      defaultValue = "10000,100000,1000000",
      description =
          "Jobs stored at each level, ascending, each a multiple of 100 (the mix is exact per 100"
              + " jobs); each level imports the difference to the one before.")
  private List<Integer> levels;

  @Option(
      names = "--import-callers",
      paramLabel = "N",
      defaultValue = "2",
      description =
          "Import calls in flight at once (1,000 jobs each), as a user's script running two"
              + " workers against one node would.")
  private int importCallers;

  @Option(
      names = "--seed",
      paramLabel = "S",
      defaultValue = "33",
      description = "Seed of the mix's random seconds, minutes, hours and one-shot instants.")
  private long seed;

  @Option(
      names = "--memory-samples",
      paramLabel = "N",
      defaultValue = "1000",
      description = "Job hashes sampled with MEMORY USAGE at each level.")
  private int memorySamples;

  @Option(
      names = "--rebuild",
      arity = "0..1",
      fallbackValue = "true",
      defaultValue = "true",
      paramLabel = "true|false",
      description =
          "At each level, empty Redis (FLUSHALL) and measure the rebuild from PostgreSQL.")
  private boolean rebuild;

  @Option(
      names = "--api-requests",
      paramLabel = "N",
      defaultValue = "50",
      description = "Requests per API call measured at each level (fewer when the budget ends).")
  private int apiRequests;

  @Option(
      names = "--api-budget-s",
      paramLabel = "S",
      defaultValue = "30",
      description = "Longest time spent on one API call's requests at one level.")
  private int apiBudgetSeconds;

  /** --nodes, --executors, --queues, --child-jvm, --redis-config: as ClusterBench's. */
  @Mixin private TopologyOptions topology;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Print this help and exit.")
  private boolean help;

  private ScaleBenchOptions() {}

  /**
   * Parses and checks {@code args}; throws {@link ParameterException} (its message names the
   * option) on an unknown option, a malformed value or values that do not fit together.
   */
  static ScaleBenchOptions parse(String... args) {
    ScaleBenchOptions o = new ScaleBenchOptions();
    CommandLine cl = new CommandLine(o);
    cl.parseArgs(args);
    if (o.help) {
      return o;
    }
    o.check(cl);
    return o;
  }

  /** The usage text: every option with its default. */
  static String usage() {
    StringWriter out = new StringWriter();
    new CommandLine(new ScaleBenchOptions()).usage(new PrintWriter(out));
    return out.toString();
  }

  private void check(CommandLine cl) {
    require(cl, !levels.isEmpty(), "--levels must name at least one level");
    int previous = 0;
    for (int level : levels) {
      require(cl, level > previous, "--levels must ascend, got " + levels);
      require(cl, level % 100 == 0, "--levels must be multiples of 100, got " + level);
      previous = level;
    }
    require(cl, importCallers >= 1 && importCallers <= 16, "--import-callers must be 1 to 16");
    require(cl, memorySamples >= 1, "--memory-samples must be at least 1");
    require(cl, apiRequests >= 1, "--api-requests must be at least 1");
    require(cl, apiBudgetSeconds >= 1, "--api-budget-s must be at least 1");
    topology.check(cl);
  }

  private static void require(CommandLine cl, boolean ok, String message) {
    if (!ok) {
      throw new ParameterException(cl, message);
    }
  }

  boolean helpRequested() {
    return help;
  }

  /**
   * The cluster: persistence-sync always on (the rebuild reads PostgreSQL) and the default shard
   * count, as deployed.
   */
  ClusterShape shape() {
    return topology.shape(true, RedisKeys.DEFAULT_SHARDS);
  }

  List<Integer> levels() {
    return List.copyOf(levels);
  }

  int importCallers() {
    return importCallers;
  }

  long seed() {
    return seed;
  }

  int memorySamples() {
    return memorySamples;
  }

  boolean rebuild() {
    return rebuild;
  }

  int apiRequests() {
    return apiRequests;
  }

  int apiBudgetSeconds() {
    return apiBudgetSeconds;
  }
}
