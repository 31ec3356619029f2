package dev.kairos.mq.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.protocol.message.TopicNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class KairosAclTest {

  private static final Path SCRIPT =
      Path.of("..").toAbsolutePath().normalize().resolve("deploy/rocketmq/kairos-acl.sh");

  @Test
  void theDeployScriptGrantsExactlyTheseRights() throws Exception {
    List<String> grants =
        Files.readAllLines(SCRIPT, StandardCharsets.UTF_8).stream()
            .map(String::trim)
            .filter(line -> line.startsWith("grant \""))
            .toList();
    List<String> expected =
        java.util.stream.Stream.concat(
                KairosAcl.node().stream().map(KairosAclTest::line),
                KairosAcl.executor("APP").stream()
                    .map(g -> line(g).replace("kairos_APP_", "kairos_${app}_"))
                    .map(l -> l.replace("kairos_exec_APP", "kairos_exec_${app}")))
            .toList();
    assertThat(grants).containsExactlyElementsOf(expected);
  }

  private static String line(KairosAcl.Grant grant) {
    return "grant \"$user\" \""
        + String.join(",", grant.resources())
        + "\" \""
        + String.join(",", grant.actions())
        + "\"";
  }

  @Test
  void anAppsPrefixCoversItsHandlerTopicsAndItsGroupIsTheExecutorsGroup() {
    KairosAcl.Grant topics = KairosAcl.executor("billing").get(0);
    assertThat(topics.resources()).containsExactly("Topic:kairos_billing_*");
    assertThat(TopicNames.handlerTopic("billing", "invoice")).startsWith("kairos_billing_");
    // Another plain app never shares the prefix: plain names have no underscore.
    assertThat(TopicNames.handlerTopic("billing-eu", "invoice"))
        .doesNotStartWith("kairos_billing_");
    assertThat(KairosAcl.executor("billing").get(1).resources())
        .containsExactly("Group:kairos_exec_billing");
  }

  @Test
  void anAppWhoseTopicsAreHashedHasNoPrefixGrant() {
    assertThatThrownBy(() -> KairosAcl.executor("billing.eu"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("one by one");
    assertThatThrownBy(() -> KairosAcl.executor("a_b"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> KairosAcl.executor("a".repeat(54)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theLongestPlainAppKeepsItsPrefixEvenWhenAHandlerNameIsHashed() {
    String app = "a".repeat(53);
    assertThat(KairosAcl.executor(app).get(0).resources())
        .containsExactly("Topic:kairos_" + app + "_*");
    assertThat(TopicNames.handlerTopic(app, "h".repeat(100))).startsWith("kairos_" + app + "_");
    assertThat(TopicNames.handlerTopic(app, "h.x")).startsWith("kairos_" + app + "_");
    // A longer app that starts with the same characters never does: its name is longer there.
    assertThat(TopicNames.handlerTopic(app + "a.b", "h".repeat(100)))
        .doesNotStartWith("kairos_" + app + "_");
  }

  @Test
  void credentialsNeverShowTheSecret() {
    RocketMqCredentials credentials = new RocketMqCredentials("kairos-node", "s3cret-value");
    assertThat(credentials.toString()).contains("kairos-node").doesNotContain("s3cret-value");
    assertThat(credentials.rpcHook()).isNotNull();
    assertThat(RocketMqCredentials.of(null, " ")).isEqualTo(RocketMqCredentials.NONE);
    assertThat(RocketMqCredentials.NONE.rpcHook()).isNull();
    assertThat(RocketMqCredentials.NONE.isConfigured()).isFalse();
    assertThatThrownBy(() -> RocketMqCredentials.of("kairos-node", ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("both");
    assertThatThrownBy(() -> RocketMqCredentials.of("", "s3cret-value"))
        .isInstanceOf(IllegalArgumentException.class)
        .message()
        .doesNotContain("s3cret-value");
  }
}
