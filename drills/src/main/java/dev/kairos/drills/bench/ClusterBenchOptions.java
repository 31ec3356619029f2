package dev.kairos.drills.bench;

import dev.kairos.core.redis.RedisKeys;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@link ClusterBench}'s command line, {@code --name=value} (picocli): the ladder, the workloads,
 * the topology, persistence-sync on or off, the M1 and MIDNIGHT workloads' sizes and the Redis
 * memory soak. {@link #parse} checks the values together; {@link #usage()} prints every option with
 * its default. Passed through Maven as {@code -Dbench.args="..."} (the {@code cluster-bench}
 * profile of {@code drills/pom.xml}).
 */
@Command(
    name = "ClusterBench",
    showDefaultValues = true,
    abbreviateSynopsis = true,
    sortOptions = false,
    usageHelpWidth = 100,
    description = {
      "End-to-end benchmark of the deployed topology (docs/benchmarks.md, section 10).",
      "Workloads: W2 = J jobs on '* * * * * *' (all due on the same millisecond every second);"
          + " W1 = J FIXED_RATE 1000 ms jobs spread over the second; M1 = J jobs on '0 * * * * *'"
          + " (a burst at the top of every minute); MIDNIGHT = N ONE_SHOT jobs all due in one"
          + " second.",
      ""
    })
final class ClusterBenchOptions {

  /** W1 spreads its jobs over 100 bands of the second, at most one import call per band. */
  static final int MAX_W1_JOBS = Workload.PHASE_BANDS * JobApi.MAX_BATCH;

  @Option(
      names = "--jobs",
      split = ",",
      paramLabel = "J",
      defaultValue = "100,1000,2000,5000",
      description =
          "The ladder of J (jobs per row) for W2, W1 and M1; a workload's ladder stops at its"
              + " first row that does not keep up.")
  private List<Integer> jobs;

  @Option(
      names = "--workloads",
      split = ",",
      paramLabel = "W",
      defaultValue = "W2,W1,M1,MIDNIGHT",
      description = "Which workloads, in order (${COMPLETION-CANDIDATES}).")
  private List<Workload> workloads;

  /** --nodes, --executors, --queues, --child-jvm, --redis-config. */
  @Mixin private TopologyOptions topology;

  @Option(
      names = "--sync",
      arity = "0..1",
      fallbackValue = "true",
      defaultValue = "true",
      paramLabel = "true|false",
      description =
          "Run persistence-sync as shipped: start PostgreSQL (its own process, measured as"
              + " 'postgres') and the nodes with kairos.sync.enabled=true. false: no PostgreSQL,"
              + " sync off (the A/B). Default: true.")
  private boolean sync;

  @Option(
      names = "--warmup-s",
      paramLabel = "S",
      defaultValue = "10",
      description = "Seconds between 'every job has been claimed once' and the window.")
  private long warmupSeconds;

  @Option(
      names = "--window-s",
      paramLabel = "S",
      defaultValue = "60",
      description = "W1 and W2: the measured window, from a whole second.")
  private long windowSeconds;

  @Option(
      names = "--m1-bursts",
      paramLabel = "N",
      defaultValue = "3",
      description =
          "M1: bursts (whole minutes) in the window; the window starts 30 s before a whole"
              + " minute.")
  private int m1Bursts;

  @Option(
      names = "--midnight-jobs",
      split = ",",
      paramLabel = "N",
      defaultValue = "100000",
      description = "MIDNIGHT: one-shot jobs all due in the same second, one row per N.")
  private List<Integer> midnightJobs;

  @Option(
      names = "--midnight-lead-s",
      paramLabel = "S",
      defaultValue = "0",
      description =
          "MIDNIGHT: seconds from the first import call to the due instant; 0 = 30 s + 1 ms per"
              + " job (the import must end first; the row reports the slack left).")
  private long midnightLeadSeconds;

  @Option(
      names = "--write-jobs",
      paramLabel = "N",
      defaultValue = "10000",
      description =
          "After the W1 row of --write-at jobs: create, enable and delete this many jobs"
              + " through the API while the row keeps firing; 0 = off.")
  private int writeJobs;

  @Option(
      names = "--write-at",
      paramLabel = "J",
      defaultValue = "1000",
      description = "See --write-jobs.")
  private int writeAt;

  @Option(
      names = "--shards",
      paramLabel = "N",
      defaultValue = "" + RedisKeys.DEFAULT_SHARDS,
      description = "Shard count written to Redis before the nodes start (they adopt it).")
  private int shards;

  @Option(
      names = "--soak-min",
      paramLabel = "MIN",
      defaultValue = "0",
      description =
          "Redis memory soak instead of the workloads: run --soak-jobs jobs of --soak-workload"
              + " for this many minutes, printing used_memory and DBSIZE every minute; 0 = off.")
  private int soakMinutes;

  @Option(
      names = "--soak-jobs",
      paramLabel = "N",
      defaultValue = "2000",
      description = "The soak's jobs.")
  private int soakJobs;

  @Option(
      names = "--soak-workload",
      paramLabel = "W",
      defaultValue = "W2",
      description = "The soak's workload (W1, W2 or M1).")
  private Workload soakWorkload;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Print this help and exit.")
  private boolean help;

  private ClusterBenchOptions() {}

  /**
   * Parses and checks {@code args}; throws {@link ParameterException} (its message names the
   * option) on an unknown option, a malformed value or values that do not fit together.
   */
  static ClusterBenchOptions parse(String... args) {
    ClusterBenchOptions o = new ClusterBenchOptions();
    CommandLine cl = commandLine(o);
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
    commandLine(new ClusterBenchOptions()).usage(new PrintWriter(out));
    return out.toString();
  }

  private static CommandLine commandLine(ClusterBenchOptions o) {
    return new CommandLine(o).setCaseInsensitiveEnumValuesAllowed(true);
  }

  private void check(CommandLine cl) {
    topology.check(cl);
    require(cl, windowSeconds > 0, "--window-s must be positive");
    require(cl, warmupSeconds >= 0, "--warmup-s must not be negative");
    require(cl, shards >= 1 && shards <= 16384, "--shards must be 1 to 16384");
    require(
        cl,
        writeJobs >= 0 && writeJobs <= JobApi.MAX_BATCH * 100,
        "--write-jobs must be 0 (off) to " + JobApi.MAX_BATCH * 100);
    require(cl, !jobs.isEmpty() && jobs.stream().allMatch(j -> j >= 1), "--jobs must be ≥ 1");
    require(
        cl,
        !workloads.contains(Workload.W1) || jobs.stream().allMatch(j -> j <= MAX_W1_JOBS),
        "W1 supports at most " + MAX_W1_JOBS + " jobs per row");
    require(cl, m1Bursts >= 1, "--m1-bursts must be at least 1");
    require(
        cl,
        !midnightJobs.isEmpty() && midnightJobs.stream().allMatch(n -> n >= 1),
        "--midnight-jobs must be ≥ 1");
    require(cl, midnightLeadSeconds >= 0, "--midnight-lead-s must not be negative");
    require(cl, soakMinutes >= 0, "--soak-min must not be negative");
    require(
        cl,
        soakWorkload.recurring() && (soakWorkload != Workload.W1 || soakJobs <= MAX_W1_JOBS),
        "--soak-workload must be W1 (at most " + MAX_W1_JOBS + " jobs), W2 or M1");
    require(cl, soakJobs >= 1, "--soak-jobs must be at least 1");
  }

  private static void require(CommandLine cl, boolean ok, String message) {
    if (!ok) {
      throw new ParameterException(cl, message);
    }
  }

  /** The cluster these options start. */
  ClusterShape shape() {
    return topology.shape(sync, shards);
  }

  /** {@code --help} was given: print {@link #usage()} and run nothing. */
  boolean helpRequested() {
    return help;
  }

  List<Integer> jobs() {
    return List.copyOf(jobs);
  }

  List<Workload> workloads() {
    return List.copyOf(workloads);
  }

  int nodes() {
    return topology.nodes();
  }

  int executors() {
    return topology.executors();
  }

  int queues() {
    return topology.queues();
  }

  boolean sync() {
    return sync;
  }

  Duration warmup() {
    return Duration.ofSeconds(warmupSeconds);
  }

  Duration window() {
    return Duration.ofSeconds(windowSeconds);
  }

  int m1Bursts() {
    return m1Bursts;
  }

  List<Integer> midnightJobs() {
    return List.copyOf(midnightJobs);
  }

  /** The due instant's distance from the first import call for {@code jobs} one-shot jobs. */
  Duration midnightLead(int jobs) {
    return midnightLeadSeconds > 0
        ? Duration.ofSeconds(midnightLeadSeconds)
        : Duration.ofSeconds(30 + (jobs + 999) / 1000);
  }

  List<String> childJvmOptions() {
    return topology.childJvmOptions();
  }

  int writeJobs() {
    return writeJobs;
  }

  int writeAt() {
    return writeAt;
  }

  int shards() {
    return shards;
  }

  Map<String, String> redisConfig() {
    return topology.redisConfig();
  }

  /** Minutes of the Redis memory soak; 0 = no soak (the workloads run). */
  int soakMinutes() {
    return soakMinutes;
  }

  int soakJobs() {
    return soakJobs;
  }

  Workload soakWorkload() {
    return soakWorkload;
  }
}
