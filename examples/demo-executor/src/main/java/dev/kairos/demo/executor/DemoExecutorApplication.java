package dev.kairos.demo.executor;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;

/** A user's service that runs Kairos jobs: the handlers are in {@link DemoJobs}. */
@SpringBootApplication
public class DemoExecutorApplication {

  /** Name of the property source {@link #start} adds; it outranks demo-executor.yml. */
  static final String PROPERTY_SOURCE = "kairosDemoExecutor";

  /**
   * The executor's own config file, {@code demo-executor.yml}: an {@code application.yml} would
   * collide with the scheduler node's when the demo runs both in one JVM (only one is loaded).
   */
  static final String CONFIG_NAME = "demo-executor";

  /**
   * Run in-process beside the scheduler node, this context sees the node's classpath too: it must
   * not become a web server nor open the node's PostgreSQL and persistence-sync wiring.
   */
  static final Map<String, Object> IN_PROCESS_DEFAULTS =
      Map.of(
          "spring.main.web-application-type",
          "none",
          "spring.autoconfigure.exclude",
          String.join(
              ",",
              "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
              "org.springframework.boot.autoconfigure.orm.jpa.HibernateJpaAutoConfiguration",
              "org.springframework.boot.autoconfigure.data.jpa.JpaRepositoriesAutoConfiguration",
              "org.springframework.boot.autoconfigure.flyway.FlywayAutoConfiguration",
              "dev.kairos.sync.spring.PersistenceSyncAutoConfiguration"));

  public static void main(String[] args) {
    new SpringApplicationBuilder(DemoExecutorApplication.class)
        .properties("spring.config.name=" + CONFIG_NAME)
        .run(args);
  }

  /**
   * Starts the demo executor in this JVM with {@code properties} above its demo-executor.yml (for
   * example the embedded infrastructure's {@code kairos.redis.uris}, {@code
   * kairos.rocketmq.name-server} and {@code kairos.fire.broker-cluster}). Close the returned
   * context to stop it gracefully; {@link #starts(ConfigurableApplicationContext)} reads its
   * counter.
   */
  public static ConfigurableApplicationContext start(Map<String, Object> properties) {
    return start(properties, new Class<?>[0]);
  }

  /**
   * As {@link #start(Map)}, with {@code extraSources} registered beside the demo's own beans (e.g.
   * a component with more {@code @KairosJob} handlers, as the failover drills add).
   */
  public static ConfigurableApplicationContext start(
      Map<String, Object> properties, Class<?>... extraSources) {
    Map<String, Object> copy = new LinkedHashMap<>(IN_PROCESS_DEFAULTS);
    copy.putAll(Objects.requireNonNull(properties));
    return new SpringApplicationBuilder(DemoExecutorApplication.class)
        .sources(extraSources)
        // The web application type is decided before initializers run, so the property in
        // IN_PROCESS_DEFAULTS alone comes too late: without this the context starts Tomcat on 8080.
        .web(WebApplicationType.NONE)
        .properties("spring.config.name=" + CONFIG_NAME)
        // Whoever started it closes it; Boot's own hook would race with the caller's order.
        .registerShutdownHook(false)
        .initializers(
            ctx ->
                ctx.getEnvironment()
                    .getPropertySources()
                    .addFirst(new MapPropertySource(PROPERTY_SOURCE, copy)))
        .run();
  }

  /** The handler starts per trigger id of a running demo executor. */
  public static StartCounter starts(ConfigurableApplicationContext context) {
    return context.getBean(StartCounter.class);
  }
}
