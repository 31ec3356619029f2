package dev.kairos.node.fire;

import java.util.concurrent.CompletionStage;
import org.apache.rocketmq.common.message.Message;

/** Publishes one trigger message on the queue of an executor slot, without blocking the caller. */
@FunctionalInterface
public interface TriggerSender {

  /** Completes when the broker acknowledged the message, exceptionally when the send failed. */
  CompletionStage<Void> send(Message message, int slot);
}
