package dev.kairos.builtin.spring;

import dev.kairos.builtin.http.HttpCallHandler;
import dev.kairos.builtin.script.ScriptHandler;
import dev.kairos.builtin.script.ScriptSettings;
import dev.kairos.mq.spring.KairosExecutorAutoConfiguration;
import dev.kairos.mq.spring.KairosJobCollector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Hosts the built-in handlers on the application's Kairos executor: {@code kairos.http} unless
 * {@code kairos.executor.builtin.http.enabled=false}, and {@code kairos.script}, whose runs fail
 * without starting anything until {@code kairos.executor.builtin.script.enabled=true} and the
 * interpreter is in {@code allowed-interpreters}. Off with {@code kairos.executor.enabled=false}.
 */
@AutoConfiguration(after = KairosExecutorAutoConfiguration.class)
@ConditionalOnProperty(
    prefix = "kairos.executor",
    name = "enabled",
    havingValue = "true",
    matchIfMissing = true)
@EnableConfigurationProperties(BuiltinHandlersProperties.class)
public class BuiltinHandlersAutoConfiguration {

  private static final Logger log = LoggerFactory.getLogger(BuiltinHandlersAutoConfiguration.class);

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  @ConditionalOnProperty(
      prefix = "kairos.executor.builtin.http",
      name = "enabled",
      havingValue = "true",
      matchIfMissing = true)
  HttpCallHandler kairosHttpCallHandler(BuiltinHandlersProperties properties) {
    return new HttpCallHandler(properties.getHttp().settings());
  }

  @Bean
  @ConditionalOnMissingBean
  ScriptHandler kairosScriptHandler(BuiltinHandlersProperties properties) {
    ScriptSettings settings = properties.getScript().settings();
    if (settings.enabled()) {
      log.warn(
          "{} is enabled: jobs of this executor's app run scripts on this host with interpreters"
              + " {}, as the user running the executor",
          ScriptHandler.NAME,
          settings.allowedInterpreters());
    }
    return new ScriptHandler(settings);
  }

  /** Hands the handlers to the starter's collector while the context's singletons are created. */
  @Bean
  BuiltinHandlerRegistration kairosBuiltinHandlerRegistration(
      KairosJobCollector collector,
      ObjectProvider<HttpCallHandler> http,
      ObjectProvider<ScriptHandler> script) {
    BuiltinHandlerRegistration registration = new BuiltinHandlerRegistration();
    http.ifAvailable(h -> registration.add(collector, new BuiltinJob(HttpCallHandler.NAME, h)));
    script.ifAvailable(s -> registration.add(collector, new BuiltinJob(ScriptHandler.NAME, s)));
    return registration;
  }
}
