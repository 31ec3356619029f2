package dev.kairos.demo;

import java.nio.file.Path;

/**
 * {@code java -jar kairos-demo.jar [--server.port=N]}: real Redis, ZooKeeper, RocketMQ and
 * PostgreSQL under {@code .kairos/} in the working directory, and a scheduler node on port 8080.
 * Ctrl-C closes the node, then the components, leaving no process behind.
 */
public final class DemoMain {

  private DemoMain() {}

  public static void main(String[] args) {
    // Absolute: devinfra launches the Redis binary from inside the work dir, so a relative path
    // to it would not resolve.
    Path workDir = Path.of(".kairos").toAbsolutePath();
    KairosDemo demo = KairosDemo.start(workDir, args);
    // The hook runs on SIGINT/SIGTERM; closing stops the embedded Redis and PostgreSQL processes.
    Runtime.getRuntime().addShutdownHook(new Thread(demo::close, "kairos-demo-shutdown"));
    System.out.println();
    System.out.println("Kairos demo is running.");
    System.out.println("  health:     " + demo.healthUrl());
    System.out.println("  metrics:    http://localhost:" + demo.port() + "/actuator/prometheus");
    System.out.println("  data, logs: " + workDir);
    System.out.println("Press Ctrl-C to stop.");
  }
}
