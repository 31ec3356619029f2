package dev.kairos.mq.executor;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Turns what one slot tenure's polls return into the lease's received-through time per handler
 * ({@code SlotLease.receivedThrough}), so the scheduler's lost-trigger monitor can tell a trigger
 * still waiting in this queue (a backlog: leave it) from one that was received and never started,
 * or never arrived (send it again).
 *
 * <p>Each queue is FIFO, so a polled message born at B proves that everything sent to its queue
 * before B was received. A poll that returns nothing at all means every assigned queue was drained
 * when it started: the lite-pull consumer waited the whole poll timeout for any queue to deliver. A
 * poll that returns messages (one queue's batch, as the lite-pull consumer hands them out) says
 * nothing about the queues it did not return from. Born times are the sender's wall clock and the
 * poll start is this executor's; a skew between them can only make the monitor re-send a little
 * early (the start claim then reports a DUPLICATE) or late.
 *
 * <p>"Drained" is inferred, not read from the broker: the consumer's background pull may not have
 * fetched a message yet (right after {@code assign()}, a slow pull on a loaded machine, an
 * unreachable broker). So an empty poll counts only once the next poll is empty as well, and then
 * with the first one's start: a message sent before it had two whole poll timeouts to arrive. When
 * the inference is still wrong it errs towards "received": the monitor re-sends as it did before
 * progress existed, and never keeps a lost trigger waiting because of it.
 *
 * <p>Thread-safety: the poll thread only.
 */
final class ReceiveProgress {

  /** Where the times go: (handler, epoch ms), in practice {@code SlotLease::receivedThrough}. */
  @FunctionalInterface
  interface Sink {
    void receivedThrough(String handler, long epochMs);
  }

  private final Map<MessageQueue, String> handlerOf;
  private final Sink sink;

  /** Start of the previous poll if it returned nothing, else -1. */
  private long emptySinceMs = -1;

  /**
   * @param handlerOf the tenure's assigned queue of each hosted handler's topic → that handler
   */
  ReceiveProgress(Map<MessageQueue, String> handlerOf, Sink sink) {
    this.handlerOf = Map.copyOf(handlerOf);
    this.sink = Objects.requireNonNull(sink, "sink");
  }

  /**
   * @param pollStartedMs this executor's wall-clock time just before the poll was issued
   * @param messages what the poll returned
   */
  void polled(long pollStartedMs, List<MessageExt> messages) {
    if (messages.isEmpty()) {
      long drainedAtMs = emptySinceMs;
      emptySinceMs = pollStartedMs;
      if (drainedAtMs >= 0) {
        handlerOf.values().forEach(handler -> sink.receivedThrough(handler, drainedAtMs));
      }
      return;
    }
    emptySinceMs = -1;
    for (MessageExt message : messages) {
      String handler =
          handlerOf.get(
              new MessageQueue(message.getTopic(), message.getBrokerName(), message.getQueueId()));
      if (handler != null) {
        sink.receivedThrough(handler, message.getBornTimestamp());
      }
    }
  }
}
