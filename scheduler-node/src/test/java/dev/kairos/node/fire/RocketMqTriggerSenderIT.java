package dev.kairos.node.fire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.devinfra.EmbeddedRocketMq;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.mq.route.TopicAdmin;
import dev.kairos.protocol.message.SlotQueueSelector;
import java.nio.charset.StandardCharsets;
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
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The sender against the real broker: a burst of sends to one slot goes out in broker batches (far
 * fewer requests than messages), and every message arrives once, on the slot's queue, with its own
 * keys, body and properties, as a single send would deliver it.
 */
@RealInfra(rocketMq = true)
class RocketMqTriggerSenderIT {

  private static final int QUEUES = 4;
  private static final int SLOT = 2;
  private static final int BURST = 500;

  private final EmbeddedRocketMq mq;
  private final String topic = "sender_it_" + UUID.randomUUID().toString().substring(0, 8);
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
  void aBurstGoesInBatchesAndEveryMessageArrivesOnceOnTheSlotsQueueAsSent() throws Exception {
    RocketMqTriggerSender sender = new RocketMqTriggerSender(producer, Duration.ofSeconds(10));
    List<CompletableFuture<Void>> acks = new ArrayList<>();
    for (int i = 0; i < BURST; i++) {
      Message message = new Message(topic, ("body-" + i).getBytes(StandardCharsets.UTF_8));
      message.setKeys("trigger-" + i);
      message.putUserProperty("n", Integer.toString(i));
      acks.add(sender.send(message, SLOT).toCompletableFuture());
    }
    CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

    MessageQueue slotQueue = SlotQueueSelector.queueOf(consumer.fetchMessageQueues(topic), SLOT);
    Map<String, MessageExt> received = new HashMap<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (received.size() < BURST && System.nanoTime() - deadline < 0) {
      for (MessageExt m : consumer.poll(200)) {
        assertThat(m.getQueueId()).isEqualTo(slotQueue.getQueueId());
        assertThat(received.put(m.getKeys(), m)).as("a second copy of " + m.getKeys()).isNull();
      }
    }
    assertThat(received).hasSize(BURST);
    for (int i = 0; i < BURST; i++) {
      MessageExt m = received.get("trigger-" + i);
      assertThat(new String(m.getBody(), StandardCharsets.UTF_8)).isEqualTo("body-" + i);
      assertThat(m.getUserProperty("n")).isEqualTo(Integer.toString(i));
    }
    assertThat(sender.requests())
        .as("broker requests for %d messages", BURST)
        .isLessThan(BURST / 2);
  }
}
