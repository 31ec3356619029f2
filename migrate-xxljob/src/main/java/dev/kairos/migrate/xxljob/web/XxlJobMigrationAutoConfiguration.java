package dev.kairos.migrate.xxljob.web;

import dev.kairos.core.time.ClusterClock;
import dev.kairos.migrate.xxljob.kairos.KairosImportClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Serves the xxl-job importer on a node: {@code POST /api/v1/migrations/xxl-job}. On by default;
 * {@code kairos.migrate.xxljob.enabled=false} removes the endpoint.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnProperty(
    prefix = "kairos.migrate.xxljob",
    name = "enabled",
    havingValue = "true",
    matchIfMissing = true)
public class XxlJobMigrationAutoConfiguration {

  @Bean
  XxlJobMigrationController xxlJobMigrationController(
      ObjectProvider<ClusterClock> clock, Environment environment) {
    // The node's own import limit (kairos.api.max-batch-size), so no batch is refused for size.
    int batchSize =
        environment.getProperty(
            "kairos.api.max-batch-size", Integer.class, KairosImportClient.DEFAULT_BATCH_SIZE);
    return new XxlJobMigrationController(clock.getIfAvailable(), batchSize);
  }
}
