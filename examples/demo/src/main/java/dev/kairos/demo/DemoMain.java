package dev.kairos.demo;

import dev.kairos.devinfra.ChildProcesses;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code java -jar kairos-demo.jar [--server.port=N]}: real Redis, ZooKeeper, RocketMQ and
 * PostgreSQL under {@code .kairos/} in the working directory, a scheduler node on port 8080 and the
 * demo executor, with the demo jobs created and a report line every few seconds. Ctrl-C closes the
 * node, then the components, leaving no process behind.
 */
public final class DemoMain {

  static final int REPORT_EVERY_SECONDS = 5;

  private DemoMain() {}

  public static void main(String[] args) {
    // Absolute: devinfra launches the Redis binary from inside the work dir, so a relative path
    // to it would not resolve.
    Path workDir = Path.of(".kairos").toAbsolutePath();
    KairosDemo demo = KairosDemo.start(workDir, args);
    ScheduledExecutorService reporter =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "kairos-demo-report");
              t.setDaemon(true);
              return t;
            });
    reporter.scheduleAtFixedRate(
        () -> {
          try {
            demo.report().print(System.out);
          } catch (RuntimeException e) {
            // A report that fails once (e.g. during shutdown) must not stop the next ones.
            System.out.println("kairos demo: report failed, will keep running: " + e);
          }
        },
        REPORT_EVERY_SECONDS,
        REPORT_EVERY_SECONDS,
        TimeUnit.SECONDS);
    // On SIGINT/SIGTERM: executor, node, then the components, before devinfra's reaper ends any
    // server process still running (a separate JVM hook would race the reaper and kill Redis and
    // PostgreSQL under the node).
    ChildProcesses.atExit(
        () -> {
          reporter.shutdownNow();
          demo.close();
        });
    System.out.println();
    System.out.println("Kairos demo is running: 22 demo jobs on app 'demo' (see DemoJobCatalog).");
    System.out.println(
        "  console:    http://localhost:"
            + demo.port()
            + "/console (sign in with the demo token "
            + KairosDemo.DEMO_ADMIN_TOKEN
            + ", or "
            + KairosDemo.DEMO_VIEWER_TOKEN
            + " to only read)");
    System.out.println("  health:     " + demo.healthUrl());
    System.out.println("  metrics:    http://localhost:" + demo.port() + "/actuator/prometheus");
    System.out.println("  data, logs: " + workDir);
    System.out.println(
        "A report line follows every " + REPORT_EVERY_SECONDS + " s. Press Ctrl-C to stop.");
  }
}
