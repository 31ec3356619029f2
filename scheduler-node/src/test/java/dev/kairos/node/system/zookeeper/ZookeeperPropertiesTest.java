package dev.kairos.node.system.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** {@code kairos.zookeeper.auth.*} bound and validated the way a node binds it. */
class ZookeeperPropertiesTest {

  private static final String PASSWORD = "s3cret-zk-password";

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner().withUserConfiguration(Binding.class);

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(ZookeeperProperties.class)
  static class Binding {}

  @Test
  void authIsOffByDefault() {
    runner.run(
        context -> {
          assertThat(context).hasNotFailed();
          ZookeeperProperties.Auth auth = context.getBean(ZookeeperProperties.class).getAuth();
          assertThat(auth.hasCredentials()).isFalse();
          assertThat(auth.getUsername()).isEmpty();
          assertThat(auth.getPassword()).isEmpty();
        });
  }

  @Test
  void blankValuesCountAsUnset() {
    runner
        .withPropertyValues("kairos.zookeeper.auth.username= ", "kairos.zookeeper.auth.password=")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(ZookeeperProperties.class).getAuth().hasCredentials())
                  .isFalse();
            });
  }

  @Test
  void bothSetTurnAuthOn() {
    runner
        .withPropertyValues(
            "kairos.zookeeper.auth.username=kairos", "kairos.zookeeper.auth.password=" + PASSWORD)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              ZookeeperProperties.Auth auth = context.getBean(ZookeeperProperties.class).getAuth();
              assertThat(auth.hasCredentials()).isTrue();
              assertThat(auth.getUsername()).isEqualTo("kairos");
              assertThat(auth.getPassword()).isEqualTo(PASSWORD);
            });
  }

  @Test
  void aUsernameWithoutPasswordFailsNamingThePassword() {
    runner
        .withPropertyValues("kairos.zookeeper.auth.username=kairos")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .hasStackTraceContaining("auth.password")
                    .hasStackTraceContaining(
                        "kairos.zookeeper.auth.password must be set when"
                            + " kairos.zookeeper.auth.username is"));
  }

  @Test
  void aPasswordWithoutUsernameFailsNamingTheUsernameAndNotShowingThePassword() {
    runner
        .withPropertyValues("kairos.zookeeper.auth.password=" + PASSWORD)
        .run(
            context -> {
              assertThat(context)
                  .getFailure()
                  .hasStackTraceContaining(
                      "kairos.zookeeper.auth.username must be set when"
                          + " kairos.zookeeper.auth.password is");
              assertThat(stackTrace(context.getStartupFailure())).doesNotContain(PASSWORD);
            });
  }

  @Test
  void aColonInTheUsernameIsRefusedWithoutShowingThePassword() {
    runner
        .withPropertyValues(
            "kairos.zookeeper.auth.username=kai:ros", "kairos.zookeeper.auth.password=" + PASSWORD)
        .run(
            context -> {
              assertThat(context)
                  .getFailure()
                  .hasStackTraceContaining("kairos.zookeeper.auth.username must not contain ':'");
              assertThat(stackTrace(context.getStartupFailure())).doesNotContain(PASSWORD);
            });
  }

  @Test
  void toStringNeverShowsThePassword() {
    ZookeeperProperties.Auth auth = new ZookeeperProperties.Auth();
    assertThat(auth).hasToString("Auth[username=, password=<blank>]");
    auth.setUsername("kairos");
    auth.setPassword(PASSWORD);
    assertThat(auth.toString()).doesNotContain(PASSWORD).contains("kairos", "<set>");
    ZookeeperProperties properties = new ZookeeperProperties();
    properties.setAuth(auth);
    assertThat(properties.toString()).doesNotContain(PASSWORD);
  }

  private static String stackTrace(Throwable e) {
    StringWriter out = new StringWriter();
    e.printStackTrace(new PrintWriter(out));
    return out.toString();
  }
}
