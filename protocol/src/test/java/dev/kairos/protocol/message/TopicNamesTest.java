package dev.kairos.protocol.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class TopicNamesTest {

  private static final Pattern ROCKETMQ_TOPIC = Pattern.compile("^[%|a-zA-Z0-9_-]+$");

  @Test
  void plainAppAndHandlerGiveTheReadableName() {
    assertThat(TopicNames.handlerTopic("billing", "sendInvoice"))
        .isEqualTo("kairos_billing_sendInvoice");
    assertThat(TopicNames.handlerTopic("my-app", "job-1")).isEqualTo("kairos_my-app_job-1");
  }

  @Test
  void disallowedCharactersAreReplacedAndAHashIsAppended() {
    String topic = TopicNames.handlerTopic("billing.eu", "send invoice");
    assertThat(topic).matches("kairos_billing-eu_send-invoice_[0-9a-f]{10}");
  }

  @Test
  void underscoresCannotMakeTwoPairsShareATopic() {
    // Both would be kairos_a_b_c if underscores were passed through.
    String first = TopicNames.handlerTopic("a_b", "c");
    String second = TopicNames.handlerTopic("a", "b_c");
    assertThat(first).isNotEqualTo(second);
    assertThat(first).isNotEqualTo("kairos_a_b_c");
  }

  @Test
  void pairsThatSanitiseAlikeStillGetDistinctTopics() {
    List<String[]> pairs =
        List.of(
            new String[] {"app.x", "h"},
            new String[] {"app x", "h"},
            new String[] {"app-x", "h"},
            new String[] {"app/x", "h"},
            new String[] {"app", "x.h"},
            new String[] {"app.x", "h\u00e9"});
    Set<String> topics = new HashSet<>();
    for (String[] pair : pairs) {
      topics.add(TopicNames.handlerTopic(pair[0], pair[1]));
    }
    assertThat(topics).hasSize(pairs.size());
  }

  @Test
  void longNamesAreShortenedToTheBrokerLimitAndStayDistinct() {
    String longApp = "a".repeat(300);
    String first = TopicNames.handlerTopic(longApp, "h1");
    String second = TopicNames.handlerTopic(longApp + "b", "h1");
    String third = TopicNames.handlerTopic("app", "h".repeat(500));
    for (String topic : List.of(first, second, third)) {
      assertThat(topic.length()).isLessThanOrEqualTo(TopicNames.MAX_LENGTH);
      assertThat(topic).matches(ROCKETMQ_TOPIC);
    }
    assertThat(first).isNotEqualTo(second);
    assertThat(first).contains("_h1_");
    assertThat(third).startsWith("kairos_app_h");
  }

  @Test
  void nameIsStableAcrossCalls() {
    assertThat(TopicNames.handlerTopic("ünï", "cödé"))
        .isEqualTo(TopicNames.handlerTopic("ünï", "cödé"))
        .matches(ROCKETMQ_TOPIC);
  }

  @Test
  void resultTopicCannotCollideWithAHandlerTopic() {
    assertThat(TopicNames.RESULTS).matches(ROCKETMQ_TOPIC);
    assertThat(TopicNames.RESULTS.chars().filter(c -> c == '_').count()).isEqualTo(1);
    assertThat(TopicNames.handlerTopic("results", "x").chars().filter(c -> c == '_').count())
        .isGreaterThanOrEqualTo(2);
  }

  @Test
  void emptyAppOrHandlerIsRejected() {
    assertThatThrownBy(() -> TopicNames.handlerTopic("", "h"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TopicNames.handlerTopic("a", ""))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
