package dev.kairos.protocol.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kairos.core.model.BlockStrategy;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MessageCodecTest {

  private final MessageCodec codec = new MessageCodec();
  private final ObjectMapper json = new ObjectMapper();

  private static TriggerMessage trigger() {
    return TriggerMessage.of(
        "job-7:1700000000000#1/3",
        "billing",
        "sendInvoice",
        1_700_000_000_000L,
        1,
        "{\"x\":1}",
        1,
        3,
        5_000,
        BlockStrategy.SERIAL_EXECUTION,
        4,
        1_700_000_000_010L);
  }

  @Test
  void triggerMessageSurvivesARoundTrip() {
    TriggerMessage message = trigger();
    assertThat(codec.decodeTrigger(codec.encode(message))).isEqualTo(message);
    assertThat(message.jobId()).isEqualTo("job-7");
    assertThat(message.messageKey()).isEqualTo("job-7:1700000000000#1/3");
  }

  @Test
  void resultMessageSurvivesARoundTrip() {
    ResultMessage message =
        ResultMessage.of(trigger(), "exec-1", 2, ResultStatus.FAIL, 10, 20, "boom");
    assertThat(codec.decodeResult(codec.encode(message))).isEqualTo(message);
  }

  @Test
  void longResultTextIsCutToTheBound() {
    ResultMessage message =
        ResultMessage.of(trigger(), "exec-1", 0, ResultStatus.FAIL, 1, 2, "x".repeat(100_000));
    assertThat(message.message()).hasSize(ResultMessage.MAX_MESSAGE_CHARS).endsWith("[truncated]");
    assertThat(codec.decodeResult(codec.encode(message)).message()).isEqualTo(message.message());
  }

  @Test
  void truncationNeverSplitsASurrogatePair() {
    int keep = ResultMessage.MAX_MESSAGE_CHARS - ResultMessage.TRUNCATED_MARK.length();
    String text = "a".repeat(keep - 1) + "\uD83D\uDE00" + "b".repeat(50);
    String cut = ResultMessage.truncate(text);
    assertThat(cut).endsWith("a" + ResultMessage.TRUNCATED_MARK);
  }

  @Test
  void unknownExtraFieldsAreIgnored() throws Exception {
    ObjectNode node = (ObjectNode) json.readTree(codec.encode(trigger()));
    node.put("priority", 5);
    assertThat(codec.decodeTrigger(json.writeValueAsBytes(node))).isEqualTo(trigger());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "version",
        "triggerId",
        "jobId",
        "app",
        "handler",
        "scheduledFireMs",
        "attempt",
        "params",
        "shardIndex",
        "shardTotal",
        "timeoutMs",
        "blockStrategy",
        "term",
        "dispatchedMs"
      })
  void missingTriggerFieldIsNamedInTheError(String field) throws Exception {
    ObjectNode node = (ObjectNode) json.readTree(codec.encode(trigger()));
    node.remove(field);
    assertThatThrownBy(() -> codec.decodeTrigger(json.writeValueAsBytes(node)))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining(field);
    node.putNull(field);
    assertThatThrownBy(() -> codec.decodeTrigger(json.writeValueAsBytes(node)))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining(field);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "version",
        "triggerId",
        "jobId",
        "executorId",
        "slot",
        "status",
        "startedMs",
        "endedMs",
        "message",
        "attempt"
      })
  void missingResultFieldIsNamedInTheError(String field) throws Exception {
    ResultMessage message =
        ResultMessage.of(trigger(), "exec-1", 2, ResultStatus.SUCCESS, 10, 20, "ok");
    ObjectNode node = (ObjectNode) json.readTree(codec.encode(message));
    node.remove(field);
    assertThatThrownBy(() -> codec.decodeResult(json.writeValueAsBytes(node)))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining(field);
  }

  @Test
  void unknownVersionIsRejected() throws Exception {
    ObjectNode node = (ObjectNode) json.readTree(codec.encode(trigger()));
    node.put("version", 2);
    assertThatThrownBy(() -> codec.decodeTrigger(json.writeValueAsBytes(node)))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("version 2");
  }

  @Test
  void wrongTypesAreRejected() throws Exception {
    ObjectNode node = (ObjectNode) json.readTree(codec.encode(trigger()));
    node.put("attempt", "one");
    assertThatThrownBy(() -> codec.decodeTrigger(json.writeValueAsBytes(node)))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("attempt");
    ObjectNode overflow = (ObjectNode) json.readTree(codec.encode(trigger()));
    overflow.put("shardIndex", 1L << 40);
    assertThatThrownBy(() -> codec.decodeTrigger(json.writeValueAsBytes(overflow)))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("shardIndex");
    ObjectNode fraction = (ObjectNode) json.readTree(codec.encode(trigger()));
    fraction.put("term", 1.5);
    assertThatThrownBy(() -> codec.decodeTrigger(json.writeValueAsBytes(fraction)))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("term");
  }

  @Test
  void invalidValuesAreRejected() throws Exception {
    assertInvalid("blockStrategy", "SOMETIMES");
    assertInvalid("triggerId", "no-colon");
    assertInvalid("jobId", "other-job");
    assertInvalidNumber("shardIndex", 3);
    assertInvalidNumber("attempt", 0);
    assertInvalidNumber("timeoutMs", -1);
  }

  private void assertInvalid(String field, String value) throws Exception {
    ObjectNode node = (ObjectNode) json.readTree(codec.encode(trigger()));
    node.put(field, value);
    assertThatThrownBy(() -> codec.decodeTrigger(json.writeValueAsBytes(node)))
        .isInstanceOf(MalformedMessageException.class);
  }

  private void assertInvalidNumber(String field, long value) throws Exception {
    ObjectNode node = (ObjectNode) json.readTree(codec.encode(trigger()));
    node.put(field, value);
    assertThatThrownBy(() -> codec.decodeTrigger(json.writeValueAsBytes(node)))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining(field);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "not json", "[1,2]", "42", "null", "{\"version\":1", "\"text\""})
  void garbageBodiesAreMalformedNotCrashes(String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> codec.decodeTrigger(bytes))
        .isInstanceOf(MalformedMessageException.class);
    assertThatThrownBy(() -> codec.decodeResult(bytes))
        .isInstanceOf(MalformedMessageException.class);
  }

  @Test
  void nullBodyIsMalformed() {
    assertThatThrownBy(() -> codec.decodeTrigger(null))
        .isInstanceOf(MalformedMessageException.class);
  }

  @Test
  void rocketMessagesCarryTheTopicTheKeyAndTheBody() {
    TriggerMessage trigger = trigger();
    org.apache.rocketmq.common.message.Message message = codec.toMessage(trigger);
    assertThat(message.getTopic()).isEqualTo("kairos_billing_sendInvoice");
    assertThat(message.getKeys()).isEqualTo(trigger.triggerId());
    assertThat(codec.decodeTrigger(message.getBody())).isEqualTo(trigger);
    ResultMessage result = ResultMessage.of(trigger, "exec-1", 1, ResultStatus.SUCCESS, 1, 2, "");
    assertThat(codec.toMessage(result).getTopic()).isEqualTo(TopicNames.RESULTS);
    assertThat(codec.toMessage(result).getKeys()).isEqualTo(trigger.triggerId());
  }
}
