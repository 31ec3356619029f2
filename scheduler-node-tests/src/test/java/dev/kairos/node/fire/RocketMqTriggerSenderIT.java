package dev.kairos.node.fire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.BlockStrategy;
import dev.kairos.devinfra.EmbeddedRocketMq;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.mq.route.TopicAdmin;
import dev.kairos.protocol.message.MessageCodec;
import dev.kairos.protocol.message.SlotQueueSelector;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.message.TriggerMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The sender against the real broker: a burst of triggers for one slot goes out as a few messages
 * (each carrying many triggers: far fewer requests, stored and pulled messages than triggers), and
 * every trigger arrives once, on the slot's queue, as it was sent.
 */
@RealInfra(rocketMq = true)
class RocketMqTriggerSenderIT {

  private static final int QUEUES = 4;
  private static final int SLOT = 2;
  private static final int BURST = 500;

  private final EmbeddedRocketMq mq;
  private final String app = "sender-it-" + UUID.randomUUID().toString().substring(0, 8);
  private final String topic = TopicNames.handlerTopic(app, "work");
  private DefaultMQProducer producer;
  private DefaultLitePullConsumer consumer;

  RocketMqTriggerSenderIT(EmbeddedRocketMq mq) {
    this.mq = mq;
  }

  @BeforeEach
  void start() throws Exception {
    try (TopicAdmin admin = new TopicAdmin(mq.nameServerAddress(), "kairos")) {
      admin.start();
      admin.ensureTopic(topic, QUEUES, Duration.ofSeconds(40));
    }
    producer = new DefaultMQProducer("sender_it_producer_" + topic);
    producer.setNamesrvAddr(mq.nameServerAddress());
    producer.setInstanceName("sender-it-" + topic);
    producer.start();
    consumer = new DefaultLitePullConsumer("sender_it_consumer_" + topic);
    consumer.setNamesrvAddr(mq.nameServerAddress());
    consumer.setInstanceName("sender-it-consumer-" + topic);
    consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
    consumer.start();
    consumer.assign(consumer.fetchMessageQueues(topic));
  }

  @AfterEach
  void stop() {
    consumer.shutdown();
    producer.shutdown();
  }

  @Test
  void aBurstGoesInFewMessagesAndEveryTriggerArrivesOnceOnTheSlotsQueueAsSent() throws Exception {
    RocketMqTriggerSender sender = new RocketMqTriggerSender(producer, Duration.ofSeconds(10));
    Map<String, TriggerMessage> sent = new HashMap<>();
    List<CompletableFuture<Void>> acks = new ArrayList<>();
    for (int i = 0; i < BURST; i++) {
      TriggerMessage trigger =
          TriggerMessage.of(
              "job-" + i + ":1000",
              app,
              "work",
              1_000,
              1,
              "{\"n\":" + i + "}",
              0,
              1,
              0,
              BlockStrategy.SERIAL_EXECUTION,
              1,
              900);
      sent.put(trigger.triggerId(), trigger);
      acks.add(sender.send(trigger, SLOT).toCompletableFuture());
    }
    CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

    MessageQueue slotQueue = SlotQueueSelector.queueOf(consumer.fetchMessageQueues(topic), SLOT);
    MessageCodec codec = new MessageCodec();
    Map<String, TriggerMessage> received = new HashMap<>();
    int messages = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (received.size() < BURST && System.nanoTime() - deadline < 0) {
      for (MessageExt m : consumer.poll(200)) {
        assertThat(m.getQueueId()).isEqualTo(slotQueue.getQueueId());
        messages++;
        for (TriggerMessage t : codec.decodeTriggers(m.getBody())) {
          assertThat(received.put(t.triggerId(), t)).as("a second copy of " + t).isNull();
        }
      }
    }
    assertThat(received).isEqualTo(sent);
    assertThat(sender.requests())
        .as("broker requests for %d triggers", BURST)
        .isEqualTo(messages)
        .isLessThan(BURST / 2);
  }
}
