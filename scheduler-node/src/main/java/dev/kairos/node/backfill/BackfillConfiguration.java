package dev.kairos.node.backfill;

import dev.kairos.backfill.BackfillDriver;
import dev.kairos.backfill.BackfillMetrics;
import dev.kairos.backfill.BackfillStore;
import dev.kairos.backfill.Backfills;
import dev.kairos.coordinator.cluster.LeadershipManager;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.protocol.adhoc.AdhocTriggers;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Backfills ({@code kairos.backfill.enabled}): the store and request checks the API uses, and the
 * driver every leader runs as a leader duty, registered with the leadership manager before the node
 * joins the cluster (the join waits for the web server), so it sees the first election.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(BackfillProperties.class)
@ConditionalOnProperty(prefix = "kairos.backfill", name = "enabled", matchIfMissing = true)
class BackfillConfiguration {

  private static final Logger log = LoggerFactory.getLogger(BackfillConfiguration.class);

  @Bean
  @ConditionalOnMissingBean
  BackfillStore backfillStore(KairosRedis redis, BackfillProperties properties) {
    return new BackfillStore(redis, properties.getRetention());
  }

  @Bean
  @ConditionalOnMissingBean
  Backfills backfills(BackfillStore store, ClusterClock clock, BackfillProperties properties) {
    return new Backfills(store, clock, properties.getMaxFires(), properties.getMaxConcurrent());
  }

  @Bean(destroyMethod = "close")
  BackfillDuty backfillDuty(
      BackfillStore store,
      AdhocTriggers adhoc,
      KairosRedis redis,
      JobStore jobs,
      ClusterClock clock,
      BackfillProperties properties,
      ObjectProvider<LeadershipManager> leadership,
      MeterRegistry meters) {
    BackfillMetrics metrics = new BackfillMetrics(meters);
    Gauge.builder("kairos.backfill.active", store, BackfillConfiguration::activeGauge)
        .description("Backfills RUNNING cluster-wide (read from Redis when scraped)")
        .register(meters);
    BackfillDuty duty =
        new BackfillDuty(
            term ->
                new BackfillDriver(
                    term,
                    store,
                    adhoc,
                    redis,
                    jobs.keys(),
                    jobs::get,
                    clock,
                    properties.getTickInterval(),
                    metrics));
    LeadershipManager manager = leadership.getIfAvailable();
    if (manager != null) {
      manager.addListener(duty);
    } else {
      log.info("kairos.cluster.leadership.enabled=false: this node never drives backfills");
    }
    return duty;
  }

  private static double activeGauge(BackfillStore store) {
    try {
      return store.activeCount();
    } catch (RuntimeException e) {
      return Double.NaN;
    }
  }
}
