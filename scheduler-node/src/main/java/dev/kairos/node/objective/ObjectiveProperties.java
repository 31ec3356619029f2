package dev.kairos.node.objective;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Lateness objectives ({@code kairos.objectives.*}).
 *
 * @param enabled whether the leader judges the jobs' lateness objectives (it needs the PostgreSQL
 *     history; without a DataSource nothing is judged)
 * @param interval how often the leader judges every objective
 * @param maxJobs the most jobs judged per pass, in id order
 */
@ConfigurationProperties("kairos.objectives")
public record ObjectiveProperties(
    @DefaultValue("true") boolean enabled,
    @DefaultValue("30s") Duration interval,
    @DefaultValue("10000") int maxJobs) {

  public ObjectiveProperties {
    if (interval.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException(
          "kairos.objectives.interval must be at least 1s but was " + interval);
    }
    if (maxJobs < 1) {
      throw new IllegalArgumentException(
          "kairos.objectives.max-jobs must be at least 1 but was " + maxJobs);
    }
  }
}
