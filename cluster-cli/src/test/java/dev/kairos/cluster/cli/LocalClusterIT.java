package dev.kairos.cluster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.devinfra.FreePorts;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Runs {@code deploy/local-cluster.sh} as a user does: {@code up} with three nodes and one executor
 * (separate JVMs from the exec jars), a job created over the REST API fires on the executor, one
 * follower is drained with {@code drain} (it exits) and the other killed with SIGKILL while the job
 * keeps firing, {@code status} reports both nodes down, and {@code down} leaves no process of the
 * cluster alive (nor any descendant, such as redis-server).
 */
class LocalClusterIT {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Path DIR = Path.of("target", "it-local-cluster").toAbsolutePath();

  @AfterEach
  void downEvenOnFailure() throws Exception {
    // A no-op when the test brought the cluster down itself.
    script(Duration.ofMinutes(3), "down", "--dir", DIR.toString());
  }

  @Test
  void upFiresAJobSurvivesANodeKillAndDownLeavesNoProcess() throws Exception {
    int basePort = FreePorts.pickBlock(0, 1, 2); // the three nodes' HTTP ports
    Result up =
        script(
            Duration.ofMinutes(8),
            "up",
            "--nodes",
            "3",
            "--executors",
            "1",
            "--base-port",
            Integer.toString(basePort),
            "--dir",
            DIR.toString(),
            "--jvm",
            "-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1");
    assertThat(up.exit()).as("up output:\n%s", up.output()).isZero();

    ClusterLayout layout = new ClusterLayout(DIR);
    List<PidFile> processes = layout.processes();
    assertThat(processes)
        .extracting(PidFile::name)
        .contains("infra", "node-1", "node-2", "node-3", "exec-1");
    List<ProcessHandle> everyProcess = new ArrayList<>();
    for (PidFile p : processes) {
      ProcessHandle handle = p.liveHandle().orElseThrow();
      everyProcess.add(handle);
      everyProcess.addAll(handle.descendants().toList());
    }
    assertThat(everyProcess.size())
        .as("the infra JVM's redis-server is a descendant")
        .isGreaterThan(4);

    String token = Files.readString(layout.adminToken(), StandardCharsets.UTF_8).trim();
    int node1 = basePort;
    JobApiClient api = new JobApiClient("127.0.0.1", node1, token);
    HttpResponse<String> created = api.createEverySecondJob("local-it", "demo");
    assertThat(created.statusCode()).as(created.body()).isBetween(200, 201);
    long firstSuccess = api.awaitSuccess("local-it", 0, Duration.ofSeconds(90));

    String leader = new NodeHttp(token).cluster(node1).leader();
    List<PidFile> followers =
        processes.stream()
            .filter(p -> p.role() == ProcessRole.NODE && !p.name().equals(leader))
            .toList();
    int leaderPort =
        processes.stream().filter(p -> p.name().equals(leader)).findFirst().orElseThrow().port();

    // Drain one follower (issue #16): it hands its wheel over, leaves and exits; the job fires on.
    PidFile drained = followers.get(0);
    ProcessHandle drainedHandle = drained.liveHandle().orElseThrow();
    Result drain = script(Duration.ofMinutes(5), "drain", drained.name(), "--dir", DIR.toString());
    assertThat(drain.exit()).as("drain output:\n%s", drain.output()).isZero();
    assertThat(drain.output()).contains(drained.name() + ": drained and exited");
    assertThat(drainedHandle.isAlive()).as("the drained node's process").isFalse();
    long drainedAt = System.currentTimeMillis();
    long afterDrain =
        new JobApiClient("127.0.0.1", leaderPort, token)
            .awaitSuccess("local-it", drainedAt, Duration.ofSeconds(90));
    assertThat(afterDrain).isGreaterThan(firstSuccess);

    // Kill the other follower (SIGKILL, no goodbye): the leader declares it dead and keeps the job
    // firing.
    PidFile follower = followers.get(1);
    ProcessHandle followerHandle = follower.liveHandle().orElseThrow();
    followerHandle.destroyForcibly();
    followerHandle.onExit().get(30, TimeUnit.SECONDS);
    long killedAt = System.currentTimeMillis();
    long afterKill =
        new JobApiClient("127.0.0.1", leaderPort, token)
            .awaitSuccess("local-it", killedAt, Duration.ofSeconds(90));
    assertThat(afterKill).isGreaterThan(afterDrain);

    Result status = script(Duration.ofMinutes(1), "status", "--dir", DIR.toString());
    assertThat(status.exit()).as("status output:\n%s", status.output()).isEqualTo(3);
    assertThat(status.output())
        .containsPattern(follower.name() + " +NODE +pid +\\d+ +DOWN")
        .containsPattern(drained.name() + " +NODE +pid +\\d+ +DOWN")
        .contains("leader " + leader);

    Result down = script(Duration.ofMinutes(3), "down", "--dir", DIR.toString());
    assertThat(down.exit()).as("down output:\n%s", down.output()).isZero();
    assertThat(everyProcess.stream().filter(ProcessHandle::isAlive).toList())
        .as("processes left after down")
        .isEmpty();
    assertThat(layout.processes()).as("pid files left after down").isEmpty();
  }

  private record Result(int exit, String output) {}

  private static Result script(Duration timeout, String... args) throws Exception {
    List<String> command =
        new ArrayList<>(List.of("bash", ROOT.resolve("deploy/local-cluster.sh").toString()));
    command.addAll(List.of(args));
    Path output = Files.createTempFile(Path.of("target"), "local-cluster-", ".out");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    Process process = builder.start();
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException(
          "local-cluster.sh "
              + args[0]
              + " still running after "
              + timeout
              + ":\n"
              + Files.readString(output));
    }
    String text = Files.readString(output);
    System.out.println(
        "local-cluster.sh " + String.join(" ", args) + " -> " + process.exitValue() + "\n" + text);
    return new Result(process.exitValue(), text);
  }
}
