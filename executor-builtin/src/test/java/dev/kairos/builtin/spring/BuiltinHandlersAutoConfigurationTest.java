package dev.kairos.builtin.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.builtin.http.HttpCallHandler;
import dev.kairos.builtin.script.ScriptHandler;
import dev.kairos.mq.spring.KairosJobCollector;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Which built-in handlers an executor hosts, from its properties. The starter's collector is given
 * directly: its own auto-configuration would connect to Redis.
 */
class BuiltinHandlersAutoConfigurationTest {

  @Configuration(proxyBeanMethods = false)
  static class Starter {
    @Bean
    static KairosJobCollector kairosJobCollector() {
      return new KairosJobCollector();
    }
  }

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withUserConfiguration(Starter.class)
          .withConfiguration(AutoConfigurations.of(BuiltinHandlersAutoConfiguration.class));

  @Test
  void byDefaultBothHandlersAreHostedAndScriptRunsAreOff() {
    runner.run(
        context -> {
          assertThat(context.getBean(BuiltinHandlerRegistration.class).handlers())
              .containsExactly("kairos.http", "kairos.script");
          ScriptHandler script = context.getBean(ScriptHandler.class);
          assertThat(script.settings().enabled()).isFalse();
          assertThat(script.settings().allowedInterpreters()).isEmpty();
        });
  }

  @Test
  void scriptRunsAreEnabledPerExecutorWithAnAllowList() {
    runner
        .withPropertyValues(
            "kairos.executor.builtin.script.enabled=true",
            "kairos.executor.builtin.script.allowed-interpreters=bash, sh,python3",
            "kairos.executor.builtin.script.work-dir=/var/tmp/scripts",
            "kairos.executor.builtin.script.default-timeout=2m",
            "kairos.executor.builtin.script.kill-grace=1s",
            "kairos.executor.builtin.script.max-output-lines=10")
        .run(
            context -> {
              var settings = context.getBean(ScriptHandler.class).settings();
              assertThat(settings.enabled()).isTrue();
              assertThat(settings.allowedInterpreters()).containsExactly("bash", "sh", "python3");
              assertThat(settings.workDir()).isEqualTo(Path.of("/var/tmp/scripts"));
              assertThat(settings.defaultTimeout()).isEqualTo(Duration.ofMinutes(2));
              assertThat(settings.killGrace()).isEqualTo(Duration.ofSeconds(1));
              assertThat(settings.maxOutputLines()).isEqualTo(10);
            });
  }

  @Test
  void theHttpHandlerCanBeLeftOut() {
    runner
        .withPropertyValues("kairos.executor.builtin.http.enabled=false")
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(HttpCallHandler.class);
              assertThat(context.getBean(BuiltinHandlerRegistration.class).handlers())
                  .containsExactly("kairos.script");
            });
  }

  @Test
  void nothingIsRegisteredWhenTheExecutorIsOff() {
    runner
        .withPropertyValues("kairos.executor.enabled=false")
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(BuiltinHandlerRegistration.class);
              assertThat(context).doesNotHaveBean(ScriptHandler.class);
            });
  }
}
