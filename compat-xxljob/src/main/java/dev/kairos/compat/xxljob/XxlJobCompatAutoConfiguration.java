package dev.kairos.compat.xxljob;

import dev.kairos.mq.spring.KairosExecutorAutoConfiguration;
import dev.kairos.mq.spring.KairosJobCollector;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Runs the application's {@code @XxlJob} methods on the Kairos executor of the starter: on while
 * {@code kairos.executor.enabled} and {@code kairos.compat.xxljob.enabled} are (both default true)
 * and xxl-job-core is on the class path.
 */
@AutoConfiguration(after = KairosExecutorAutoConfiguration.class)
@ConditionalOnClass(name = "com.xxl.job.core.handler.annotation.XxlJob")
@ConditionalOnProperty(
    name = {"kairos.executor.enabled", "kairos.compat.xxljob.enabled"},
    havingValue = "true",
    matchIfMissing = true)
public class XxlJobCompatAutoConfiguration {

  /**
   * Static, like the starter's collector: a post-processor must exist before the beans it inspects.
   * Its settings are bound from the environment directly for the same reason.
   */
  @Bean
  static XxlJobMethodCollector xxlJobMethodCollector(
      KairosJobCollector collector, Environment environment) {
    XxlJobCompatProperties properties =
        Binder.get(environment)
            .bind("kairos.compat.xxljob", XxlJobCompatProperties.class)
            .orElseGet(XxlJobCompatProperties::new);
    return new XxlJobMethodCollector(collector, properties.getLogDir());
  }
}
