package dev.kairos.console.web;

import dev.kairos.console.security.ConsoleSecurityConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The console's pages and assets. Assets live under {@code /console} too (the console's own CSS and
 * script, and htmx and uPlot from their WebJars at {@code /console/assets/}), so the node's other
 * paths stay as they were: its API chain refuses anything it does not know.
 */
@Configuration(proxyBeanMethods = false)
@Import({
  ConsoleModelAdvice.class,
  SignInController.class,
  DashboardController.class,
  JobsController.class,
  BatchController.class,
  TriggersController.class,
  TriggerSearchController.class,
  JobTransferController.class,
  ExecutorsController.class,
  ClusterController.class,
  TokensController.class,
  AuditLogController.class,
  WorkflowsController.class
})
public class ConsoleWebConfiguration implements WebMvcConfigurer {

  @Bean
  ConsoleFormat consoleFormat() {
    return new ConsoleFormat();
  }

  @Override
  public void addResourceHandlers(ResourceHandlerRegistry registry) {
    registry
        .addResourceHandler("/console/static/**")
        .addResourceLocations("classpath:/kairos-console/static/");
    registry
        .addResourceHandler(ConsoleSecurityConfiguration.FAVICON)
        .addResourceLocations("classpath:/kairos-console/static/");
    registry
        .addResourceHandler("/console/assets/**")
        .addResourceLocations("classpath:/META-INF/resources/webjars/");
  }
}
