package dev.kairos.alarm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.alarm.email.EmailAlarmChannel;
import dev.kairos.alarm.spring.AlarmAutoConfiguration;
import dev.kairos.core.alarm.AlarmSink;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.mail.MailSenderAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class AlarmAutoConfigurationTest {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  MailSenderAutoConfiguration.class, AlarmAutoConfiguration.class));

  private static java.util.List<String> channelNames(AlarmService service) {
    return service.channels().stream().map(AlarmChannel::name).toList();
  }

  @Test
  void byDefaultTheSinkLogsOnly() {
    runner.run(
        context -> {
          assertThat(context).hasSingleBean(AlarmSink.class);
          assertThat(channelNames(context.getBean(AlarmService.class))).containsExactly("log");
        });
  }

  @Test
  void oneWebhookChannelPerUrl() {
    runner
        .withPropertyValues(
            "kairos.alarm.webhook.urls=http://127.0.0.1:1/a,https://hooks.example/b?token=x",
            "kairos.alarm.webhook.headers.Authorization=Bearer t",
            "kairos.alarm.webhook.secret=s",
            "kairos.alarm.log.enabled=false")
        .run(
            context ->
                assertThat(channelNames(context.getBean(AlarmService.class)))
                    .containsExactly("webhook-0", "webhook-1"));
  }

  @Test
  void emailOnlyWhereSpringMailHostIsSet() {
    runner
        .withPropertyValues("kairos.alarm.email.to=ops@example.org")
        .run(context -> assertThat(context).doesNotHaveBean(EmailAlarmChannel.class));
    runner
        .withPropertyValues(
            "spring.mail.host=127.0.0.1",
            "spring.mail.port=2525",
            "kairos.alarm.email.from=kairos@example.org",
            "kairos.alarm.email.to=ops@example.org,oncall@example.org")
        .run(
            context -> {
              assertThat(context).hasSingleBean(EmailAlarmChannel.class);
              assertThat(channelNames(context.getBean(AlarmService.class)))
                  .containsExactlyInAnyOrder("log", "email");
            });
  }

  @Test
  void withoutRedisTheWindowIsThisProcesssOwn() {
    runner.run(
        context ->
            assertThat(context.getBean(AlarmWindow.class)).isInstanceOf(AlarmDeduplicator.class));
  }

  @Test
  void switchedOffByProperty() {
    runner
        .withPropertyValues("kairos.alarm.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(AlarmSink.class));
  }

  @Test
  void anApplicationSinkWins() {
    AlarmSink own = alarm -> true;
    runner
        .withBean(AlarmSink.class, () -> own)
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(AlarmService.class);
              assertThat(context.getBean(AlarmSink.class)).isSameAs(own);
            });
  }

  @Test
  void anApplicationChannelIsUsed() {
    AlarmChannel pager =
        new AlarmChannel() {
          @Override
          public String name() {
            return "pager";
          }

          @Override
          public void deliver(AlarmNotice notice) {}
        };
    runner
        .withBean("pager", AlarmChannel.class, () -> pager)
        .run(
            context ->
                assertThat(channelNames(context.getBean(AlarmService.class)))
                    .containsExactlyInAnyOrder("log", "pager"));
  }
}
