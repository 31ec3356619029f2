package dev.kairos.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.console.api.NodeApi;
import dev.kairos.console.metrics.MeterSampler;
import dev.kairos.console.metrics.SampleSeries;
import dev.kairos.console.security.ConsoleSecurityConfiguration;
import dev.kairos.console.web.ConsoleWebConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.server.CookieSameSiteSupplier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.security.oauth2.server.resource.introspection.OpaqueTokenIntrospector;

/**
 * The console, on a servlet web application that has the node's API tokens (an {@link
 * OpaqueTokenIntrospector}); {@code kairos.console.enabled=false} leaves it out.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnProperty(prefix = "kairos.console", name = "enabled", matchIfMissing = true)
@ConditionalOnBean(OpaqueTokenIntrospector.class)
@EnableConfigurationProperties(ConsoleProperties.class)
@Import({ConsoleSecurityConfiguration.class, ConsoleWebConfiguration.class})
public class ConsoleAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  NodeApi consoleNodeApi(ObjectMapper json, ConsoleProperties properties) {
    return new NodeApi(json, properties.getApiTimeout(), properties.getApiBaseUrl());
  }

  /**
   * The session cookie is the console's (the API is stateless); SameSite=Lax keeps other sites'
   * forms from riding on it, on top of the CSRF token.
   */
  @Bean
  CookieSameSiteSupplier consoleSessionCookieSameSite() {
    return CookieSameSiteSupplier.ofLax().whenHasName("JSESSIONID");
  }

  @Bean
  @ConditionalOnMissingBean
  SampleSeries consoleSampleSeries(ConsoleProperties properties) {
    return new SampleSeries(properties.getSamplesKept());
  }

  /** Without a meter registry (a node without actuator) the charts stay empty. */
  @Bean(destroyMethod = "close")
  MeterSampler consoleMeterSampler(
      ObjectProvider<MeterRegistry> meters, SampleSeries series, ConsoleProperties properties) {
    MeterSampler sampler =
        new MeterSampler(
            meters.getIfAvailable(SimpleMeterRegistry::new),
            series,
            properties.getSampleInterval());
    sampler.start();
    return sampler;
  }
}
