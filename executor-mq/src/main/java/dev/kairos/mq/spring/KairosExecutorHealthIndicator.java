package dev.kairos.mq.spring;

import dev.kairos.mq.executor.ExecutorHealth;
import dev.kairos.mq.executor.KairosExecutor;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * Actuator health of the executor ({@code /actuator/health}, component {@code kairosExecutor}): UP
 * while it takes work from its slot's queues; DOWN while it does not (lease not trusted, lost and
 * being claimed again, consumer stopped); UNKNOWN when no executor runs (no {@code @KairosJob}
 * method, or not started yet). Details: app, instanceId, slot, leaseValid, leaseRemainingMs,
 * leaseAgeMs (since the last successful renewal), reclaims, running.
 */
public final class KairosExecutorHealthIndicator extends AbstractHealthIndicator {

  private final KairosExecutorLifecycle lifecycle;

  public KairosExecutorHealthIndicator(KairosExecutorLifecycle lifecycle) {
    super("Kairos executor health check failed");
    this.lifecycle = lifecycle;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    KairosExecutor executor = lifecycle.executor();
    if (executor == null) {
      builder.unknown().withDetail("reason", "no executor is running");
      return;
    }
    ExecutorHealth h = executor.health();
    (h.consuming() ? builder.up() : builder.down())
        .withDetail("app", h.app())
        .withDetail("instanceId", h.instanceId())
        .withDetail("slot", h.slot())
        .withDetail("leaseValid", h.leaseValid())
        .withDetail("leaseRemainingMs", h.leaseRemaining().toMillis())
        .withDetail("leaseAgeMs", h.sinceRenewal().toMillis())
        .withDetail("reclaims", h.reclaims())
        .withDetail("running", h.running());
  }
}
