package dev.kairos.cluster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.ComposeContainer;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * Brings the top-level docker-compose.yml up with Testcontainers (images built from the exec jars
 * of this build, secrets made by deploy/compose/make-secrets.sh) and drives a job end to end: a
 * cron job created on node 1 fires on a sample executor. Needs a Docker engine with the compose
 * plugin; without one it is skipped with the reason printed (a JUnit assumption), and
 * ComposeFileTest's static checks are what ran.
 */
class ComposeClusterIT {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final String NODE = "kairos-node-1";
  private static final int NODE_PORT = 8080;

  @Test
  void composeClusterFiresAJobOnASampleExecutor() throws Exception {
    boolean docker = dockerAvailable();
    if (!docker) {
      System.out.println(
          "ComposeClusterIT SKIPPED: no Docker engine is reachable from this machine"
              + " (DockerClientFactory.isDockerAvailable() is false), so docker-compose.yml was"
              + " not brought up; ComposeFileTest checked it statically.");
    }
    Assumptions.assumeTrue(
        docker, "no Docker engine reachable: docker-compose.yml was not brought up");

    Process secrets =
        new ProcessBuilder("bash", ROOT.resolve("deploy/compose/make-secrets.sh").toString())
            .inheritIO()
            .start();
    assertThat(secrets.waitFor(60, TimeUnit.SECONDS) && secrets.exitValue() == 0)
        .as("make-secrets.sh")
        .isTrue();
    String token =
        Files.readString(
                ROOT.resolve("deploy/compose/secrets/kairos-admin-token"), StandardCharsets.UTF_8)
            .trim();

    try (ComposeContainer compose =
        new ComposeContainer(new File(ROOT.toFile(), "docker-compose.yml"))
            .withLocalCompose(true)
            .withBuild(true)
            .withExposedService(
                NODE,
                NODE_PORT,
                Wait.forHttp("/actuator/health")
                    .forStatusCode(200)
                    .withStartupTimeout(Duration.ofMinutes(6)))) {
      compose.start();
      JobApiClient api =
          new JobApiClient(
              compose.getServiceHost(NODE, NODE_PORT),
              compose.getServicePort(NODE, NODE_PORT),
              token);
      HttpResponse<String> created = api.createEverySecondJob("compose-it", "demo");
      assertThat(created.statusCode()).as(created.body()).isBetween(200, 201);
      long fired = api.awaitSuccess("compose-it", 0, Duration.ofMinutes(3));
      assertThat(fired).isPositive();
    }
  }

  private static boolean dockerAvailable() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException e) {
      return false;
    }
  }
}
