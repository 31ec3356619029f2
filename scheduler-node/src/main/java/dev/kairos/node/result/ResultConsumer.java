package dev.kairos.node.result;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.lifecycle.Lifecycle;
import dev.kairos.mq.route.KairosAcl;
import dev.kairos.mq.route.RocketMqCredentials;
import dev.kairos.protocol.message.MalformedMessageException;
import dev.kairos.protocol.message.MessageCodec;
import dev.kairos.protocol.message.ResultMessage;
import dev.kairos.protocol.message.TopicNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.ServiceState;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A scheduler node's consumer of {@link TopicNames#RESULTS}: one clustering consumer group for all
 * nodes ({@value #GROUP}), so each result is handled by one node, in batches handed to {@link
 * ResultRecorder}. A batch whose records could not be written is redelivered by the broker
 * (RECONSUME_LATER, RocketMQ's retry topic of the group); completion is idempotent, so a redelivery
 * costs only the read. A new group starts at the end of the topic: results published while no node
 * consumed at all are replayed only when the group already existed.
 */
public final class ResultConsumer implements AutoCloseable {

  /** The consumer group of every scheduler node. */
  public static final String GROUP = KairosAcl.NODE_RESULTS_GROUP;

  /** Results per batch handed to the recorder (and pipelined to Redis together). */
  static final int BATCH = 64;

  private static final Logger log = LoggerFactory.getLogger(ResultConsumer.class);

  private final ResultRecorder recorder;
  private final ResultMeters meters;
  private final Duration writeTimeout;
  private final DefaultMQPushConsumer consumer;
  private final MessageCodec codec = new MessageCodec();
  private final Lifecycle lifecycle = new Lifecycle("result consumer");

  ResultConsumer(
      ResultRecorder recorder,
      ResultMeters meters,
      String group,
      String nameServer,
      RocketMqCredentials credentials,
      String node,
      int threads,
      Duration writeTimeout) {
    this.recorder = recorder;
    this.meters = meters;
    this.writeTimeout = writeTimeout;
    this.consumer = new DefaultMQPushConsumer(group, credentials.rpcHook());
    consumer.setNamesrvAddr(nameServer);
    // One client instance per (address, instance name): two nodes in one JVM must not share it.
    consumer.setInstanceName("kairos-results-" + node);
    consumer.setMessageModel(MessageModel.CLUSTERING);
    consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET);
    consumer.setConsumeThreadMin(threads);
    consumer.setConsumeThreadMax(threads);
    consumer.setConsumeMessageBatchMaxSize(BATCH);
    consumer.setPullBatchSize(BATCH);
  }

  public void start() {
    lifecycle.start();
    try {
      consumer.subscribe(TopicNames.RESULTS, "*");
      consumer.registerMessageListener(
          (List<MessageExt> messages,
              org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyContext context) ->
              consume(messages));
      consumer.start();
    } catch (MQClientException e) {
      close();
      throw new KairosException("cannot start the result consumer: " + e.getMessage(), e);
    } catch (IllegalStateException e) {
      // The client throws after it is already running when the first route lookup fails (no
      // reachable NameServer). A node must start without one, like its fire path: the client's own
      // route refresh and rebalance (every 20-30 s) take the queues once the NameServer answers.
      if (consumer.getDefaultMQPushConsumerImpl().getServiceState() != ServiceState.RUNNING) {
        close();
        throw new KairosException("cannot start the result consumer: " + e.getMessage(), e);
      }
      log.warn(
          "result consumer started without a route to {} ({}); it subscribes once the NameServer"
              + " answers",
          TopicNames.RESULTS,
          e.getMessage());
      return;
    }
    log.info(
        "result consumer started (group {}, topic {})",
        consumer.getConsumerGroup(),
        TopicNames.RESULTS);
  }

  public Lifecycle.State state() {
    return lifecycle.state();
  }

  /** Runs on a consumer thread; never throws. */
  ConsumeConcurrentlyStatus consume(List<MessageExt> messages) {
    List<ResultMessage> batch = new ArrayList<>(messages.size());
    for (MessageExt message : messages) {
      try {
        batch.add(codec.decodeResult(message.getBody()));
      } catch (MalformedMessageException e) {
        meters.malformed.increment();
        log.warn("skipping malformed result {}: {}", message.getMsgId(), e.getMessage());
      }
    }
    try {
      recorder.record(batch, writeTimeout);
      return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ConsumeConcurrentlyStatus.RECONSUME_LATER;
    } catch (RuntimeException e) {
      meters.errors.increment();
      log.warn(
          "{} results not recorded ({}); the broker redelivers them", batch.size(), e.toString());
      return ConsumeConcurrentlyStatus.RECONSUME_LATER;
    }
  }

  @Override
  public void close() {
    if (!lifecycle.close()) {
      return;
    }
    consumer.shutdown();
    log.info("result consumer closed");
  }
}
