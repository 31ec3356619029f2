package dev.kairos.alarm.spring;

import dev.kairos.alarm.AlarmChannel;
import dev.kairos.alarm.AlarmDeduplicator;
import dev.kairos.alarm.AlarmMetrics;
import dev.kairos.alarm.AlarmService;
import dev.kairos.alarm.AlarmWindow;
import dev.kairos.alarm.JobRecipientChannels;
import dev.kairos.alarm.LogAlarmChannel;
import dev.kairos.alarm.RecipientChannels;
import dev.kairos.alarm.RedisAlarmWindow;
import dev.kairos.alarm.RetryPolicy;
import dev.kairos.alarm.email.EmailAlarmChannel;
import dev.kairos.alarm.webhook.WebhookAlarmChannel;
import dev.kairos.alarm.webhook.WebhookSettings;
import dev.kairos.core.alarm.AlarmSink;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.time.KairosClock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.mail.MailSenderAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.mail.javamail.JavaMailSender;

/**
 * Wires the application's {@link AlarmSink}: an {@link AlarmService} delivering to every {@link
 * AlarmChannel} bean (the log channel, email where {@code spring.mail.host} is set, and any the
 * application defines) plus one webhook channel per {@code kairos.alarm.webhook.urls} entry. {@code
 * kairos.alarm.enabled=false} leaves no sink; an application's own AlarmSink bean wins.
 *
 * <p>De-duplication is cluster-wide ({@link RedisAlarmWindow}) where the application has a {@link
 * KairosRedis} bean, measured with its {@link KairosClock} bean (a scheduler node's cluster clock)
 * or the wall clock when it has none; without Redis it is per process ({@link AlarmDeduplicator}).
 */
@AutoConfiguration(after = MailSenderAutoConfiguration.class)
@ConditionalOnProperty(
    prefix = "kairos.alarm",
    name = "enabled",
    havingValue = "true",
    matchIfMissing = true)
@EnableConfigurationProperties(AlarmProperties.class)
public class AlarmAutoConfiguration {

  /** Doubling back-off between retries of the channels built here. */
  static final double BACKOFF_MULTIPLIER = 2;

  @Bean
  @ConditionalOnMissingBean
  AlarmMetrics kairosAlarmMetrics(ObjectProvider<MeterRegistry> registry) {
    return new AlarmMetrics(registry.getIfAvailable(SimpleMeterRegistry::new));
  }

  @Bean
  @ConditionalOnProperty(
      prefix = "kairos.alarm.log",
      name = "enabled",
      havingValue = "true",
      matchIfMissing = true)
  LogAlarmChannel kairosLogAlarmChannel() {
    return new LogAlarmChannel();
  }

  @Bean
  @ConditionalOnMissingBean
  AlarmWindow kairosAlarmWindow(
      AlarmProperties properties,
      ObjectProvider<KairosRedis> redis,
      ObjectProvider<KairosClock> clocks,
      AlarmMetrics metrics) {
    KairosClock clock = clocks.getIfUnique(() -> System::currentTimeMillis);
    AlarmDeduplicator local =
        new AlarmDeduplicator(properties.getWindow(), properties.getMaxKeys(), clock);
    KairosRedis shared = redis.getIfUnique();
    if (shared == null) {
      return local;
    }
    return new RedisAlarmWindow(
        shared,
        properties.getWindow(),
        AlarmDeduplicator.DEFAULT_CARRY_RETENTION,
        properties.getRedisTimeout(),
        clock,
        local,
        metrics);
  }

  /**
   * A failed job's own alarm emails (through the node's mail server, with the email channel's
   * sender and retries) and webhooks (with the webhook channels' timeouts and retries, never their
   * headers or secret).
   */
  @Bean
  @ConditionalOnMissingBean
  RecipientChannels kairosAlarmRecipientChannels(
      AlarmProperties properties, ObjectProvider<JavaMailSender> mail) {
    AlarmProperties.Email email = properties.getEmail();
    AlarmProperties.Webhook webhook = properties.getWebhook();
    return new JobRecipientChannels(
        mail.getIfUnique(),
        email.getFrom(),
        new RetryPolicy(
            email.getRetries(),
            email.getInitialBackoff(),
            BACKOFF_MULTIPLIER,
            email.getMaxBackoff()),
        webhook.getConnectTimeout(),
        webhook.getReadTimeout(),
        new RetryPolicy(
            webhook.getRetries(),
            webhook.getInitialBackoff(),
            BACKOFF_MULTIPLIER,
            webhook.getMaxBackoff()));
  }

  @Bean(initMethod = "start", destroyMethod = "close")
  @ConditionalOnMissingBean(AlarmSink.class)
  AlarmService kairosAlarmService(
      AlarmProperties properties,
      ObjectProvider<AlarmChannel> channelBeans,
      RecipientChannels recipientChannels,
      AlarmWindow window,
      AlarmMetrics metrics) {
    List<AlarmChannel> channels = new ArrayList<>(channelBeans.orderedStream().toList());
    channels.addAll(webhooks(properties.getWebhook()));
    return new AlarmService(
        window,
        channels,
        recipientChannels,
        metrics,
        properties.getCapacity(),
        properties.getThreads(),
        properties.getCloseGrace());
  }

  static List<WebhookAlarmChannel> webhooks(AlarmProperties.Webhook webhook) {
    RetryPolicy retry =
        new RetryPolicy(
            webhook.getRetries(),
            webhook.getInitialBackoff(),
            BACKOFF_MULTIPLIER,
            webhook.getMaxBackoff());
    String secret =
        webhook.getSecret() == null || webhook.getSecret().isEmpty() ? null : webhook.getSecret();
    List<WebhookAlarmChannel> channels = new ArrayList<>();
    List<URI> urls = webhook.getUrls();
    for (int i = 0; i < urls.size(); i++) {
      channels.add(
          new WebhookAlarmChannel(
              "webhook-" + i,
              new WebhookSettings(
                  urls.get(i),
                  webhook.getHeaders(),
                  secret,
                  webhook.getConnectTimeout(),
                  webhook.getReadTimeout(),
                  retry)));
    }
    return channels;
  }

  /** Only where Boot made a JavaMailSender, i.e. {@code spring.mail.host} is set. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(JavaMailSender.class)
  @ConditionalOnProperty(prefix = "spring.mail", name = "host")
  @ConditionalOnBean(JavaMailSender.class)
  static class EmailConfiguration {

    @Bean
    @ConditionalOnProperty(prefix = "kairos.alarm.email", name = "to")
    EmailAlarmChannel kairosEmailAlarmChannel(JavaMailSender sender, AlarmProperties properties) {
      AlarmProperties.Email email = properties.getEmail();
      return new EmailAlarmChannel(
          sender,
          email.getFrom(),
          email.getTo(),
          new RetryPolicy(
              email.getRetries(),
              email.getInitialBackoff(),
              BACKOFF_MULTIPLIER,
              email.getMaxBackoff()));
    }
  }
}
