package dev.kairos.node.fire;

import dev.kairos.protocol.message.TriggerMessage;
import java.util.concurrent.CompletionStage;

/** Publishes a trigger on the queue of an executor slot, without blocking the caller. */
@FunctionalInterface
public interface TriggerSender {

  /** Completes when the broker acknowledged the trigger, exceptionally when the send failed. */
  CompletionStage<Void> send(TriggerMessage trigger, int slot);
}
