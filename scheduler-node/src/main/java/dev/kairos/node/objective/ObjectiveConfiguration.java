package dev.kairos.node.objective;

import dev.kairos.core.alarm.AlarmSink;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.node.alarm.LeaderView;
import dev.kairos.objectives.LatenessHistory;
import dev.kairos.objectives.ObjectiveWatch;
import io.micrometer.core.instrument.MeterRegistry;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Lateness objectives: the history reader every node answers {@code /lateness} with, and the watch
 * that judges every objective and alarms while this node leads. Both need the PostgreSQL history; a
 * node without a DataSource has neither, and its {@code /lateness} answers 503 for a job that
 * declares an objective.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ObjectiveProperties.class)
class ObjectiveConfiguration {

  private static final Logger log = LoggerFactory.getLogger(ObjectiveConfiguration.class);

  @Bean(initMethod = "start", destroyMethod = "close")
  NodeObjectives nodeObjectives(
      ObjectiveProperties properties,
      ObjectProvider<DataSource> dataSource,
      ObjectProvider<LeaderView> leaders,
      ObjectProvider<AlarmSink> sinks,
      ClusterClock clock,
      MeterRegistry meters) {
    DataSource ds = dataSource.getIfAvailable();
    if (ds == null) {
      log.info("lateness objectives are off on this node: no PostgreSQL history (no DataSource)");
      return new NodeObjectives(null, null);
    }
    LatenessHistory history = new LatenessHistory(ds);
    LeaderView leader = leaders.getIfUnique();
    if (!properties.enabled() || leader == null) {
      log.info(
          "lateness objectives are not judged on this node: {}",
          leader == null ? "it takes no part in leadership" : "kairos.objectives.enabled=false");
      return new NodeObjectives(history, null);
    }
    AlarmSink sink = sinks.getIfUnique();
    ObjectiveWatch watch =
        new ObjectiveWatch(
            history,
            leader::isLeader,
            sink == null ? alarm -> false : sink,
            clock::nowMs,
            meters,
            properties.interval(),
            properties.maxJobs());
    return new NodeObjectives(history, watch);
  }
}
