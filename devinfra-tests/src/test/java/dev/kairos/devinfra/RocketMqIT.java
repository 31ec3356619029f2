package dev.kairos.devinfra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.MessageQueueSelector;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

@RealInfra(rocketMq = true)
class RocketMqIT {

  /** Sends to the queue whose id is the argument: one queue per executor slot, as Kairos does. */
  private static final MessageQueueSelector BY_QUEUE_ID =
      (queues, message, queueId) ->
          queues.stream()
              .filter(q -> q.getQueueId() == (Integer) queueId)
              .findFirst()
              .orElseThrow();

  private final EmbeddedRocketMq mq;
  private final List<Runnable> shutdowns = new ArrayList<>();

  RocketMqIT(EmbeddedRocketMq mq) {
    this.mq = mq;
  }

  @AfterEach
  void shutDownClients() {
    shutdowns.forEach(Runnable::run);
  }

  @Test
  void messageSentToQueueTwoReachesOnlyTheConsumerAssignedToQueueTwo() throws Exception {
    String topic = "kairos-it-select-" + shortId();
    mq.createTopic(topic, 4);
    mq.createTopic(topic, 4); // idempotent
    DefaultMQProducer producer = producer();
    DefaultLitePullConsumer onQueueTwo = consumerOf(topic, 2);
    DefaultLitePullConsumer onQueueZero = consumerOf(topic, 0);

    SendResult sent = producer.send(message(topic, "for-slot-2"), BY_QUEUE_ID, 2);
    assertThat(sent.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
    assertThat(sent.getMessageQueue().getQueueId()).isEqualTo(2);
    assertThat(receive(onQueueTwo, 1)).containsExactly("for-slot-2");

    // A later marker on queue 0 proves the other consumer was polling all along: the first and
    // only thing it sees is the marker, never the message for queue 2.
    producer.send(message(topic, "marker-for-slot-0"), BY_QUEUE_ID, 0);
    assertThat(receive(onQueueZero, 1)).containsExactly("marker-for-slot-0");
  }

  @Test
  void messagesSentBeforeABrokerRestartAreConsumedAfterIt() throws Exception {
    String topic = "kairos-it-restart-" + shortId();
    mq.createTopic(topic, 1);
    DefaultMQProducer producer = producer();
    for (int i = 0; i < 3; i++) {
      assertThat(producer.send(message(topic, "m" + i), BY_QUEUE_ID, 0).getSendStatus())
          .isEqualTo(SendStatus.SEND_OK);
    }
    long bootedAt = brokerBootTimestamp();

    mq.restartBroker();

    // A new broker process-in-the-JVM answered: the old one really went away.
    assertThat(mq.isBrokerRunning()).isTrue();
    assertThat(brokerBootTimestamp()).isGreaterThan(bootedAt);
    assertThat(receive(consumerOf(topic, 0), 3)).containsExactly("m0", "m1", "m2");
  }

  /**
   * A freshly started broker answers runtime stats only after its stats sampler's first round;
   * before that the call fails inside the broker (NoSuchElementException on an empty sample list),
   * so the read is polled with a deadline.
   */
  private long brokerBootTimestamp() throws Exception {
    DefaultMQAdminExt admin = new DefaultMQAdminExt();
    admin.setNamesrvAddr(mq.nameServerAddress());
    admin.setInstanceName("admin-" + shortId());
    admin.start();
    try {
      AtomicLong bootedAt = new AtomicLong();
      Poll.until(
          Duration.ofSeconds(30),
          "broker runtime stats with a bootTimestamp",
          () -> {
            try {
              bootedAt.set(
                  Long.parseLong(
                      admin
                          .fetchBrokerRuntimeStats(mq.brokerAddress())
                          .getTable()
                          .get("bootTimestamp")));
              return true;
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          });
      return bootedAt.get();
    } finally {
      admin.shutdown();
    }
  }

  private DefaultMQProducer producer() throws Exception {
    DefaultMQProducer producer = new DefaultMQProducer("kairos-it-producer-" + shortId());
    producer.setNamesrvAddr(mq.nameServerAddress());
    producer.setInstanceName("producer-" + shortId());
    producer.setSendMsgTimeout(5_000);
    producer.start();
    shutdowns.add(producer::shutdown);
    return producer;
  }

  private DefaultLitePullConsumer consumerOf(String topic, int queueId) throws Exception {
    DefaultLitePullConsumer consumer =
        new DefaultLitePullConsumer("kairos-it-consumer-" + shortId());
    consumer.setNamesrvAddr(mq.nameServerAddress());
    consumer.setInstanceName("consumer-" + shortId());
    consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
    consumer.setPollTimeoutMillis(200);
    consumer.start();
    shutdowns.add(0, consumer::shutdown);
    MessageQueue queue =
        consumer.fetchMessageQueues(topic).stream()
            .filter(q -> q.getQueueId() == queueId)
            .findFirst()
            .orElseThrow();
    consumer.assign(List.of(queue));
    return consumer;
  }

  /** Polls until {@code count} messages arrived (or the deadline passed) and returns bodies. */
  private static List<String> receive(DefaultLitePullConsumer consumer, int count) {
    List<String> bodies = new ArrayList<>();
    Poll.until(
        Duration.ofSeconds(30),
        count + " message(s) on " + consumer.getConsumerGroup(),
        () -> {
          for (MessageExt m : consumer.poll()) {
            bodies.add(new String(m.getBody(), StandardCharsets.UTF_8));
          }
          return bodies.size() >= count;
        });
    return bodies;
  }

  private static Message message(String topic, String body) {
    return new Message(topic, body.getBytes(StandardCharsets.UTF_8));
  }

  private static String shortId() {
    return UUID.randomUUID().toString().substring(0, 8);
  }
}
