package dev.kairos.demo.executor;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;

/** A user's service that runs Kairos jobs: the handlers are in {@link DemoJobs}. */
@SpringBootApplication
public class DemoExecutorApplication {

  /** Name of the property source {@link #start} adds; it outranks application.yml. */
  static final String PROPERTY_SOURCE = "kairosDemoExecutor";

  public static void main(String[] args) {
    SpringApplication.run(DemoExecutorApplication.class, args);
  }

  /**
   * Starts the demo executor in this JVM with {@code properties} above its application.yml (for
   * example the embedded infrastructure's {@code kairos.redis.uris}, {@code
   * kairos.rocketmq.name-server} and {@code kairos.fire.broker-cluster}). Close the returned
   * context to stop it gracefully; {@link #starts(ConfigurableApplicationContext)} reads its
   * counter.
   */
  public static ConfigurableApplicationContext start(Map<String, Object> properties) {
    Map<String, Object> copy = new LinkedHashMap<>(Objects.requireNonNull(properties));
    return new SpringApplicationBuilder(DemoExecutorApplication.class)
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
