package dev.kairos.protocol.message;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.kairos.core.error.KairosException;
import dev.kairos.core.model.BlockStrategy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.common.message.Message;

/**
 * JSON bytes of {@link TriggerMessage} and {@link ResultMessage}. Reading is strict about what it
 * needs and lenient about what it does not know: every field of the record must be present with the
 * right JSON type and a valid value, and {@code version} must be one this reader knows; unknown
 * extra fields are ignored so a producer may add optional fields without a version bump. Any
 * violation is a {@link MalformedMessageException} naming the field. Thread-safe.
 */
public final class MessageCodec {

  private final ObjectMapper mapper = JsonMapper.builder().build();

  public byte[] encode(TriggerMessage message) {
    return write(message);
  }

  public byte[] encode(ResultMessage message) {
    return write(message);
  }

  /**
   * The RocketMQ message of a trigger: its handler topic, key = trigger id, JSON body. Send it with
   * {@code producer.send(message, new SlotQueueSelector(), slot)}.
   */
  public Message toMessage(TriggerMessage trigger) {
    Message message =
        new Message(TopicNames.handlerTopic(trigger.app(), trigger.handler()), encode(trigger));
    message.setKeys(trigger.messageKey());
    return message;
  }

  /** The RocketMQ message of a result: topic {@link TopicNames#RESULTS}, key = trigger id. */
  public Message toMessage(ResultMessage result) {
    Message message = new Message(TopicNames.RESULTS, encode(result));
    message.setKeys(result.messageKey());
    return message;
  }

  /**
   * The body of one broker message carrying several triggers of one queue: a JSON array of trigger
   * objects, each as {@link #encode(TriggerMessage)} writes it. A node sends the triggers of one
   * queue that are due together as one such message, so the broker stores, and the executor pulls
   * and decodes, one message per burst and queue instead of one per trigger.
   */
  public byte[] encodeBatch(List<TriggerMessage> triggers) {
    if (triggers.isEmpty()) {
      throw new IllegalArgumentException("a batch holds at least one trigger");
    }
    try {
      return mapper.writeValueAsBytes(triggers);
    } catch (JsonProcessingException e) {
      throw new KairosException("cannot encode a batch of " + triggers.size() + " triggers", e);
    }
  }

  /**
   * The triggers of a message body: one trigger object ({@link #encode(TriggerMessage)}) or an
   * array of them ({@link #encodeBatch}). Strict like {@link #decodeTrigger}: one malformed trigger
   * makes the whole body malformed.
   */
  public List<TriggerMessage> decodeTriggers(byte[] body) {
    JsonNode root = tree(body, "trigger");
    if (!root.isArray()) {
      return List.of(trigger(object(root, "trigger")));
    }
    if (root.isEmpty()) {
      throw new MalformedMessageException("empty trigger batch");
    }
    List<TriggerMessage> triggers = new ArrayList<>(root.size());
    for (JsonNode element : root) {
      triggers.add(trigger(object(element, "trigger")));
    }
    return triggers;
  }

  public TriggerMessage decodeTrigger(byte[] body) {
    return trigger(object(tree(body, "trigger"), "trigger"));
  }

  private TriggerMessage trigger(JsonNode root) {
    Fields f = fields(root, "trigger", TriggerMessage.VERSION);
    try {
      return new TriggerMessage(
          f.version,
          f.text("triggerId"),
          f.text("jobId"),
          f.text("app"),
          f.text("handler"),
          f.longValue("scheduledFireMs"),
          f.intValue("attempt"),
          f.text("params"),
          f.intValue("shardIndex"),
          f.intValue("shardTotal"),
          f.longValue("timeoutMs"),
          f.enumValue("blockStrategy", BlockStrategy.class),
          f.longValue("term"),
          f.longValue("dispatchedMs"));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new MalformedMessageException("invalid trigger message: " + e.getMessage(), e);
    }
  }

  public ResultMessage decodeResult(byte[] body) {
    Fields f = read(body, "result", ResultMessage.VERSION);
    try {
      return new ResultMessage(
          f.version,
          f.text("triggerId"),
          f.text("jobId"),
          f.text("executorId"),
          f.intValue("slot"),
          f.enumValue("status", ResultStatus.class),
          f.longValue("startedMs"),
          f.longValue("endedMs"),
          f.text("message"),
          f.intValue("attempt"));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new MalformedMessageException("invalid result message: " + e.getMessage(), e);
    }
  }

  private byte[] write(Record message) {
    try {
      return mapper.writeValueAsBytes(message);
    } catch (JsonProcessingException e) {
      throw new KairosException("cannot encode " + message, e);
    }
  }

  private Fields read(byte[] body, String kind, int knownVersion) {
    return fields(object(tree(body, kind), kind), kind, knownVersion);
  }

  private JsonNode tree(byte[] body, String kind) {
    if (body == null || body.length == 0) {
      throw new MalformedMessageException("empty " + kind + " message");
    }
    try {
      JsonNode root = mapper.readTree(body);
      if (root == null) {
        throw new MalformedMessageException(kind + " message is not JSON");
      }
      return root;
    } catch (IOException e) {
      throw new MalformedMessageException(kind + " message is not JSON: " + e.getMessage(), e);
    }
  }

  private static JsonNode object(JsonNode node, String kind) {
    if (!node.isObject()) {
      throw new MalformedMessageException(kind + " message is not a JSON object");
    }
    return node;
  }

  private static Fields fields(JsonNode root, String kind, int knownVersion) {
    Fields fields = new Fields(kind, root);
    int version = fields.intValue("version");
    if (version != knownVersion) {
      throw new MalformedMessageException(
          "unknown "
              + kind
              + " message version "
              + version
              + " (this reader knows "
              + knownVersion
              + ")");
    }
    fields.version = version;
    return fields;
  }

  /** Typed access to the fields of one JSON object; every miss names the field. */
  private static final class Fields {
    private final String kind;
    private final JsonNode root;
    private int version;

    Fields(String kind, JsonNode root) {
      this.kind = kind;
      this.root = root;
    }

    private JsonNode get(String name) {
      JsonNode node = root.get(name);
      if (node == null || node.isNull()) {
        throw new MalformedMessageException(kind + " message lacks field '" + name + "'");
      }
      return node;
    }

    String text(String name) {
      JsonNode node = get(name);
      if (!node.isTextual()) {
        throw wrongType(name, "a string");
      }
      return node.textValue();
    }

    long longValue(String name) {
      JsonNode node = get(name);
      if (!node.isIntegralNumber() || !node.canConvertToLong()) {
        throw wrongType(name, "an integer");
      }
      return node.longValue();
    }

    int intValue(String name) {
      JsonNode node = get(name);
      if (!node.isIntegralNumber() || !node.canConvertToInt()) {
        throw wrongType(name, "a 32-bit integer");
      }
      return node.intValue();
    }

    <E extends Enum<E>> E enumValue(String name, Class<E> type) {
      String value = text(name);
      try {
        return Enum.valueOf(type, value);
      } catch (IllegalArgumentException e) {
        throw new MalformedMessageException(
            kind + " message field '" + name + "' has unknown value '" + value + "'");
      }
    }

    private MalformedMessageException wrongType(String name, String expected) {
      return new MalformedMessageException(
          kind + " message field '" + name + "' must be " + expected);
    }
  }
}
