package dev.kairos.protocol.message;

import org.apache.rocketmq.client.producer.DefaultMQProducer;

/**
 * What every Kairos RocketMQ producer sets before it starts, beyond its address and names.
 *
 * <p>RocketMQ 5's producer always starts the two guard threads of its auto-batch accumulator, and
 * each wakes every {@code batchMaxDelayMs / 2} (5 ms by default) to look for batches to flush: 400
 * wake-ups a second per JVM, busy or idle. Kairos never turns auto-batching on (the node batches
 * per queue itself, {@code RocketMqTriggerSender}), so the accumulator never holds a message and
 * the delay only sets how often those threads wake.
 */
public final class ProducerDefaults {

  /** The accumulator's hold time: its guard threads then wake twice a second. */
  public static final int IDLE_ACCUMULATOR_DELAY_MS = 1_000;

  private ProducerDefaults() {}

  /**
   * Applies the defaults to a producer that has not started (it hands them to its accumulator as it
   * starts); returns it.
   */
  public static DefaultMQProducer apply(DefaultMQProducer producer) {
    producer.batchMaxDelayMs(IDLE_ACCUMULATOR_DELAY_MS);
    return producer;
  }
}
