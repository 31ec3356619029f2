package dev.kairos.cluster.cli;

import java.io.PrintStream;

/**
 * A local multi-process Kairos cluster without Docker: {@code up} starts the embedded
 * infrastructure, N scheduler nodes and M sample executors as separate JVMs; {@code status} shows
 * which are up, each node's health and the leader; {@code drain <node>} drains one node out of the
 * cluster (it hands its wheel over, then exits: a rolling upgrade's first half); {@code down} stops
 * them all. Run through {@code deploy/local-cluster.sh}; see {@code docs/operations.md}.
 *
 * <p>Exit codes: 0 done (status: every process up), 1 failed, 2 bad command line, 3 status found a
 * process down or no cluster.
 */
public final class LocalClusterCli {

  private LocalClusterCli() {}

  public static void main(String[] args) {
    System.exit(run(System.out, args));
  }

  /** Runs one command, printing to {@code out}; returns the exit code. */
  static int run(PrintStream out, String... args) {
    CliOptions options;
    try {
      options = CliOptions.parse(args);
    } catch (IllegalArgumentException e) {
      out.println(e.getMessage());
      return 2;
    }
    ClusterLayout layout = new ClusterLayout(options.dir());
    try {
      return switch (options.command()) {
        case "up" -> {
          new LocalClusterUp(options, out).run();
          yield 0;
        }
        case "status" -> new LocalClusterStatus(layout, out).run() ? 0 : 3;
        case "down" -> new LocalClusterDown(layout, out).run().isEmpty() ? 0 : 1;
        case "drain" -> new LocalClusterDrain(layout, out).run(options.target()) ? 0 : 1;
        default -> throw new IllegalStateException("unreachable: " + options.command());
      };
    } catch (RuntimeException e) {
      out.println("local-cluster " + options.command() + " failed: " + e.getMessage());
      return 1;
    }
  }
}
