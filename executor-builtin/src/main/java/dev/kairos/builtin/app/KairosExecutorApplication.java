package dev.kairos.builtin.app;

import java.util.Map;
import java.util.Objects;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * The standard executor, {@code kairos-executor}: a Kairos executor service with no code of its
 * own, hosting the built-in handlers ({@code kairos.http}, and {@code kairos.script} where enabled)
 * for the app named by {@code kairos.executor.app}. It listens on no port. Configuration: {@code
 * kairos-executor.yml} beside the jar or on the class path, command-line {@code --property=value},
 * or environment variables ({@code KAIROS_EXECUTOR_APP=ops}).
 */
@SpringBootApplication
public class KairosExecutorApplication {

  /**
   * Its config file name: {@code kairos-executor.yml}, so it never reads a node's application.yml.
   */
  public static final String CONFIG_NAME = "kairos-executor";

  static final String PROPERTY_SOURCE = "kairosExecutorOverrides";

  public static void main(String[] args) {
    builder().run(args);
  }

  /**
   * Starts the standard executor in this JVM with {@code properties} above its configuration
   * (tests, launchers); close the context to stop it gracefully.
   */
  public static ConfigurableApplicationContext start(Map<String, Object> properties) {
    Map<String, Object> copy = Map.copyOf(Objects.requireNonNull(properties));
    return builder()
        .registerShutdownHook(false)
        .initializers(
            ctx ->
                ctx.getEnvironment()
                    .getPropertySources()
                    .addFirst(new MapPropertySource(PROPERTY_SOURCE, copy)))
        .run();
  }

  private static SpringApplicationBuilder builder() {
    return new SpringApplicationBuilder(KairosExecutorApplication.class)
        .web(WebApplicationType.NONE)
        .properties("spring.config.name=" + CONFIG_NAME);
  }
}
