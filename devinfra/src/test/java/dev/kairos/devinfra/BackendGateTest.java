package dev.kairos.devinfra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class BackendGateTest {

  private static final DockerProbe NO_DOCKER = () -> Optional.of("no Docker engine is reachable");
  private static final DockerProbe DOCKER = Optional::empty;
  private static final InfraRequest STANDALONE =
      new InfraRequest(RedisMode.STANDALONE, ZkMode.STANDALONE, true, true);

  @Test
  void theEmbeddedKitAlwaysRunsAndNeverAsksForDocker() {
    DockerProbe mustNotBeAsked =
        () -> {
          throw new AssertionError("the embedded kit asked for Docker");
        };
    BackendGate gate = new BackendGate(InfraBackend.EMBEDDED, mustNotBeAsked);

    assertThat(gate.skipReason("SomeIT", STANDALONE)).isEmpty();
    assertThat(
            gate.skipReason(
                "SomeIT", new InfraRequest(RedisMode.CLUSTER, ZkMode.ENSEMBLE, false, false)))
        .isEmpty();
  }

  @Test
  void containersWithoutDockerSkipWithTheReasonAndNoFallback() {
    BackendGate gate = new BackendGate(InfraBackend.CONTAINERS, NO_DOCKER);

    assertThat(gate.skipReason("dev.kairos.SomeIT", STANDALONE))
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .startsWith("dev.kairos.SomeIT SKIPPED on -Dkairos.infra=containers:")
                    .contains("no Docker engine is reachable")
                    .contains("the embedded kit is not used instead"));
  }

  @Test
  void containersWithDockerRunWhatTheyProvide() {
    BackendGate gate = new BackendGate(InfraBackend.CONTAINERS, DOCKER);

    assertThat(gate.skipReason("SomeIT", STANDALONE)).isEmpty();
  }

  @Test
  void containersSkipARedisClusterOrAZooKeeperEnsembleTheyDoNotProvide() {
    BackendGate gate = new BackendGate(InfraBackend.CONTAINERS, DOCKER);

    assertThat(
            gate.skipReason(
                "SomeIT", new InfraRequest(RedisMode.CLUSTER, ZkMode.ENSEMBLE, false, false)))
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .contains("does not provide a Redis Cluster or a ZooKeeper ensemble yet"));
  }
}
