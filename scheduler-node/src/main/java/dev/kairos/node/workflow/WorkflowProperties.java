package dev.kairos.node.workflow;

import dev.kairos.node.system.PositiveDuration;
import dev.kairos.workflow.WorkflowDriver;
import dev.kairos.workflow.WorkflowScheduler;
import dev.kairos.workflow.WorkflowValidator;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/** Workflows: DAGs of jobs ({@code kairos.workflow.*}). */
@Validated
@ConfigurationProperties("kairos.workflow")
public class WorkflowProperties {

  /**
   * Whether this node serves the workflow API, drives runs (through its lifecycle worker) and,
   * while it leads, starts scheduled runs. Every node of a cluster should agree.
   */
  private boolean enabled = true;

  /** How long an ended run (state, nodes, trigger ids) is kept in Redis. */
  @NotNull private Duration runRetention = WorkflowDriver.DEFAULT_RUN_RETENTION;

  /** How often the leader looks for scheduled workflows whose fire time has come. */
  @NotNull @PositiveDuration private Duration scheduleTick = WorkflowScheduler.DEFAULT_TICK;

  /** Most nodes one workflow may have. */
  @Min(1)
  @Max(10_000)
  private int maxNodes = WorkflowValidator.DEFAULT_MAX_NODES;

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Duration getRunRetention() {
    return runRetention;
  }

  public void setRunRetention(Duration runRetention) {
    this.runRetention = runRetention;
  }

  public Duration getScheduleTick() {
    return scheduleTick;
  }

  public void setScheduleTick(Duration scheduleTick) {
    this.scheduleTick = scheduleTick;
  }

  public int getMaxNodes() {
    return maxNodes;
  }

  public void setMaxNodes(int maxNodes) {
    this.maxNodes = maxNodes;
  }
}
