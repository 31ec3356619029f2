package dev.kairos.node.fire;

import dev.kairos.mq.route.SlotQueueSelector;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;

/**
 * Sends with RocketMQ's asynchronous send and {@link SlotQueueSelector} (slot i = queue i). Only a
 * {@link SendStatus#SEND_OK} counts as acknowledged: the other statuses mean the broker has the
 * message but not yet on disk or on its replica, and the trigger stays inflight for a re-send.
 */
public final class RocketMqTriggerSender implements TriggerSender {

  private static final SlotQueueSelector SELECTOR = new SlotQueueSelector();

  private final DefaultMQProducer producer;
  private final long timeoutMs;

  public RocketMqTriggerSender(DefaultMQProducer producer, Duration timeout) {
    this.producer = producer;
    this.timeoutMs = timeout.toMillis();
  }

  @Override
  public CompletionStage<Void> send(Message message, int slot) {
    CompletableFuture<Void> acked = new CompletableFuture<>();
    try {
      producer.send(
          message,
          SELECTOR,
          slot,
          new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
              if (result.getSendStatus() == SendStatus.SEND_OK) {
                acked.complete(null);
              } else {
                acked.completeExceptionally(
                    new IllegalStateException("broker answered " + result.getSendStatus()));
              }
            }

            @Override
            public void onException(Throwable e) {
              acked.completeExceptionally(e);
            }
          },
          timeoutMs);
    } catch (Exception e) {
      acked.completeExceptionally(e);
    }
    return acked;
  }
}
