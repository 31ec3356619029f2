package dev.kairos.node.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.node.backfill.BackfillProperties;
import dev.kairos.node.cluster.ClusterProperties;
import dev.kairos.node.workflow.WorkflowProperties;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** A loop's pause of zero (or less) is refused when the node binds it, naming the property. */
class PositiveDurationTest {

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties({
    BackfillProperties.class,
    WorkflowProperties.class,
    ClusterProperties.class
  })
  static class Bound {}

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner().withUserConfiguration(Bound.class);

  @Test
  void theDefaultsAndAPositivePauseBind() {
    runner
        .withPropertyValues(
            "kairos.backfill.tick-interval=250ms", "kairos.workflow.schedule-tick=2s")
        .run(context -> assertThat(context).hasNotFailed());
    runner.run(context -> assertThat(context).hasNotFailed());
  }

  @Test
  void aZeroBackfillTickIsRefusedByName() {
    assertRefused("kairos.backfill.tick-interval=0s", "kairos.backfill", "tickInterval");
  }

  @Test
  void aNegativeWorkflowTickIsRefusedByName() {
    assertRefused("kairos.workflow.schedule-tick=-1s", "kairos.workflow", "scheduleTick");
  }

  @Test
  void aNestedLoopPauseIsValidatedToo() {
    assertRefused(
        "kairos.cluster.leadership.failover-sweep-interval=0ms",
        "kairos.cluster",
        "failoverSweepInterval");
  }

  private void assertRefused(String property, String prefix, String field) {
    runner
        .withPropertyValues(property)
        .run(
            context -> {
              assertThat(context).hasFailed();
              Throwable root = context.getStartupFailure();
              StringBuilder messages = new StringBuilder();
              for (Throwable t = root; t != null; t = t.getCause()) {
                messages.append(t.getMessage()).append('\n');
              }
              assertThat(messages.toString())
                  .contains(prefix)
                  .contains(field)
                  .contains("must be a positive duration");
            });
  }
}
