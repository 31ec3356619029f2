package dev.kairos.devinfra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * {@code -Dkairos.infra=containers} where no Docker engine is reachable (this machine, CI): a
 * {@link RealInfra} class is skipped (aborted, with the reason), never failed and never run on the
 * embedded kit, for per-method and per-class lifecycles alike (the latter resolves constructor
 * parameters before {@code beforeAll}). Runs the real extension and the real Docker probe.
 */
class ContainersBackendSkipTest {

  static final List<String> ran = new CopyOnWriteArrayList<>();

  @RealInfra(redis = RedisMode.STANDALONE)
  static class AsksForRedis {
    @Test
    void uses(EmbeddedRedis redis) {
      ran.add("AsksForRedis " + redis.uri());
    }
  }

  @RealInfra(zookeeper = ZkMode.STANDALONE, postgres = true)
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  static class PerClassWithConstructorParameter {
    private final EmbeddedZooKeeper zk;

    PerClassWithConstructorParameter(EmbeddedZooKeeper zk) {
      this.zk = zk;
    }

    @Test
    void uses() {
      ran.add("PerClass " + zk.connectString());
    }
  }

  private String before;

  @BeforeEach
  void selectContainers() {
    Assumptions.assumeTrue(
        DockerProbe.TESTCONTAINERS.unavailableReason().isPresent(),
        "a Docker engine is reachable here: the skip path is not what would happen");
    ran.clear();
    before = System.getProperty(InfraBackend.PROPERTY);
    System.setProperty(InfraBackend.PROPERTY, "containers");
  }

  @AfterEach
  void restore() {
    if (before == null) {
      System.clearProperty(InfraBackend.PROPERTY);
    } else {
      System.setProperty(InfraBackend.PROPERTY, before);
    }
  }

  @Test
  void withoutDockerEveryClassIsSkippedWithTheReasonAndNothingStarts() {
    List<String> aborted = new CopyOnWriteArrayList<>();
    List<String> failed = new CopyOnWriteArrayList<>();
    Launcher launcher = LauncherFactory.create();
    launcher.execute(
        LauncherDiscoveryRequestBuilder.request()
            .selectors(
                selectClass(AsksForRedis.class),
                selectClass(PerClassWithConstructorParameter.class))
            .build(),
        new TestExecutionListener() {
          @Override
          public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            String message =
                id.getDisplayName()
                    + ": "
                    + result.getThrowable().map(Throwable::getMessage).orElse("");
            switch (result.getStatus()) {
              case ABORTED -> aborted.add(message);
              case FAILED -> failed.add(message);
              default -> {}
            }
          }
        });

    assertThat(failed).as("never failed").isEmpty();
    assertThat(ran).as("never run, on containers or on the embedded kit").isEmpty();
    assertThat(aborted)
        .as("both classes skipped with the reason")
        .hasSize(2)
        .allSatisfy(
            m ->
                assertThat(m)
                    .contains("SKIPPED on -Dkairos.infra=containers")
                    .contains("Docker")
                    .contains("the embedded kit is not used instead"));
  }
}
