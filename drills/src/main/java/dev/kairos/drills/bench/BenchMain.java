package dev.kairos.drills.bench;

import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * The life of a bench JVM, the same for every bench: parse the options (exit 2 with the usage on a
 * bad one), run the bench against its own cluster under {@code target/<name>/<UTC time>/}, close
 * the cluster however the run ends (a shutdown hook covers Ctrl-C), exit 0 or 1.
 */
final class BenchMain {

  /** A bench run against a cluster it owns. */
  interface Bench {
    void run() throws InterruptedException;

    BenchCluster cluster();
  }

  private BenchMain() {}

  static <O> void run(
      String name,
      String[] args,
      Function<String[], O> parse,
      Predicate<O> helpRequested,
      Supplier<String> usage,
      BiFunction<O, Path, Bench> create) {
    O options;
    try {
      options = parse.apply(args);
    } catch (CommandLine.ParameterException e) {
      System.out.println("bench: " + e.getMessage());
      System.out.println(usage.get());
      System.exit(2);
      return;
    }
    if (helpRequested.test(options)) {
      System.out.println(usage.get());
      System.exit(0);
    }
    String stamp =
        DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
            .withZone(ZoneOffset.UTC)
            .format(Instant.now());
    Bench bench = create.apply(options, Path.of("target", name, stamp));
    BenchCluster cluster = bench.cluster();
    Thread hook = new Thread(cluster::close, name + "-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    int status = 0;
    try {
      bench.run();
    } catch (Exception e) {
      System.out.println("bench: FAILED: " + e);
      e.printStackTrace(System.out);
      status = 1;
    } finally {
      cluster.close();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // already shutting down (Ctrl-C): the hook closes
      }
    }
    // RocketMQ and ZooKeeper leave non-daemon threads behind their shutdown.
    System.exit(status);
  }
}
