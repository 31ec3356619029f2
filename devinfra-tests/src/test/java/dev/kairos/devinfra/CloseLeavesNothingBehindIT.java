package dev.kairos.devinfra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Starts everything in a separate JVM ({@link InfraProbe}) so that "nothing left behind" can be
 * checked where it matters: the JVM must end by itself once main returns (no non-daemon thread),
 * and no redis-server or postgres process of its work dir may survive it.
 */
class CloseLeavesNothingBehindIT {

  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(150);

  @Test
  void jvmEndsByItselfAndNoServerProcessOutlivesIt() throws Exception {
    Path workDir = EmbeddedInfrastructure.newTempWorkDir();
    Path log = workDir.resolve("probe.log");
    Process probe =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "-Duser.home=" + System.getProperty("user.home"),
                "-cp",
                System.getProperty("java.class.path"),
                InfraProbe.class.getName(),
                workDir.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();

    boolean ended = probe.waitFor(PROBE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    if (!ended) {
      probe.descendants().forEach(ProcessHandle::destroyForcibly);
      probe.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    List<String> report = probeLines(log);
    report.forEach(System.out::println);

    assertThat(ended)
        .as("probe JVM ended by itself within %s; its output:%n%s", PROBE_TIMEOUT, read(log))
        .isTrue();
    assertThat(probe.exitValue()).as(read(log)).isZero();
    assertThat(report).contains("PROBE MAIN_RETURNS");
    assertThat(report).noneMatch(l -> l.startsWith("PROBE LEFT_THREAD"));
    assertThat(report).noneMatch(l -> l.startsWith("PROBE LEFT_PROCESS"));
    Poll.until(
        Duration.ofSeconds(10),
        "no process running from " + workDir,
        () ->
            ProcessHandle.allProcesses()
                .noneMatch(p -> p.info().commandLine().orElse("").contains(workDir.toString())));
  }

  private static List<String> probeLines(Path log) throws IOException {
    return Files.readAllLines(log).stream().filter(l -> l.startsWith("PROBE ")).toList();
  }

  private static String read(Path log) throws IOException {
    return Files.readString(log);
  }
}
