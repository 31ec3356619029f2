package dev.kairos.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.devinfra.Poll;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * README's Run as a user runs it: {@link DemoMain} in its own JVM, stopped by SIGTERM (what Ctrl-C
 * does to its shutdown hooks). It must stop the executor and the node before the components that
 * serve them, quietly, and leave no process behind.
 */
class DemoShutdownIT {

  private static final long START_DEADLINE_S = 240;

  /** How the demo's output says it started. */
  private static final String RUNNING = "Kairos demo is running";

  private static final long STOP_DEADLINE_S = 90;

  /** What the demo printed at WARN on every start before (issue: first impressions). */
  private static final List<String> NEWCOMER_CANNOT_ACT_ON =
      List.of(
          "kairos.cluster.secret is not set",
          "HHH90000025",
          "SpringDoc",
          "maxCnxns",
          "Redis holds no Kairos shard markers");

  @Test
  void aSignalStopsTheExecutorAndNodeBeforeTheComponentsWithNoErrorAndNoOrphan() throws Exception {
    Path cwd = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "demo-run");
    Path output = cwd.resolve("demo.out");
    Process demo =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx768m",
                "-cp",
                System.getProperty("java.class.path"),
                DemoMain.class.getName(),
                "--server.port=0")
            .directory(cwd.toFile())
            .redirectErrorStream(true)
            // A file, not a pipe: a pipe read racing the process's exit can lose the last lines.
            .redirectOutput(output.toFile())
            .start();
    List<ProcessHandle> children = new ArrayList<>();
    try {
      List<String> lines =
          Poll.until(
              Duration.ofSeconds(START_DEADLINE_S),
              Duration.ofMillis(200),
              "the demo to say it is running",
              () -> outputWhileAlive(demo, output),
              read -> read.stream().anyMatch(l -> l.startsWith(RUNNING)),
              "a line \"" + RUNNING + "\"",
              e -> e instanceof DemoExited);
      // The start says nothing a newcomer cannot act on: the demo configures what a real node
      // would warn about (its cluster secret, springdoc) and nothing else warns on a new cluster.
      List<String> started = lines;
      for (String warning : NEWCOMER_CANNOT_ACT_ON) {
        assertThat(started.stream().filter(l -> l.contains(" WARN ") && l.contains(warning)))
            .as("a WARN at start about %s:\n%s", warning, String.join("\n", started))
            .isEmpty();
      }
      children.addAll(demo.descendants().toList());
      assertThat(children).as("the demo's server processes (Redis, PostgreSQL)").isNotEmpty();
      int before = lines.size();

      demo.destroy(); // SIGTERM

      assertThat(demo.waitFor(STOP_DEADLINE_S, TimeUnit.SECONDS))
          .as("the demo stops within %d s", STOP_DEADLINE_S)
          .isTrue();
      List<String> all = Files.readAllLines(output);
      List<String> shutdown = all.subList(before, all.size());
      assertThat(shutdown.stream().filter(l -> l.contains(" ERROR ")).toList())
          .as("ERROR lines while stopping:\n%s", String.join("\n", shutdown))
          .isEmpty();
      assertThat(shutdown.stream().filter(l -> l.contains(" WARN ")).toList())
          .as("WARN lines while stopping:\n%s", String.join("\n", shutdown))
          .isEmpty();
      String said = String.join("\n", shutdown);
      int executorStopped = indexOf(shutdown, "Kairos executor of app demo stopped");
      int nodeStopped = indexOf(shutdown, "fire path closed");
      int brokerStopped = indexOf(shutdown, "rocketmq closed");
      int postgresStopped = indexOf(shutdown, "shut down postmaster");
      assertThat(executorStopped).as("the executor stopped:\n%s", said).isNotNegative();
      assertThat(nodeStopped)
          .as("the node after the executor:\n%s", said)
          .isGreaterThan(executorStopped);
      assertThat(brokerStopped)
          .as("the broker after the node:\n%s", said)
          .isGreaterThan(nodeStopped);
      assertThat(postgresStopped)
          .as("PostgreSQL after the node:\n%s", said)
          .isGreaterThan(nodeStopped);
      for (ProcessHandle child : children) {
        assertThat(child.onExit().get(30, TimeUnit.SECONDS).isAlive())
            .as("child %s ended", child.info().command().orElse("?"))
            .isFalse();
      }
    } finally {
      demo.destroyForcibly();
      children.forEach(ProcessHandle::destroyForcibly);
    }
  }

  private static int indexOf(List<String> lines, String text) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(text)) {
        return i;
      }
    }
    return -1;
  }

  private static String tail(List<String> lines) {
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }

  /** The demo exited before it said it was running: the wait ends at once with its last lines. */
  private static final class DemoExited extends RuntimeException {
    DemoExited(String message) {
      super(message);
    }
  }

  private static List<String> outputWhileAlive(Process demo, Path output) {
    List<String> lines;
    try {
      lines = Files.readAllLines(output);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    if (!demo.isAlive() && lines.stream().noneMatch(l -> l.startsWith(RUNNING))) {
      throw new DemoExited("the demo exited early:\n" + tail(lines));
    }
    return lines;
  }
}
