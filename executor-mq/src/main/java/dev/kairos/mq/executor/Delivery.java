package dev.kairos.mq.executor;

import dev.kairos.protocol.message.TriggerMessage;
import org.apache.rocketmq.common.message.MessageQueue;

/** One received copy of a trigger: where it came from (for the offset) and what to run. */
record Delivery(MessageQueue queue, long offset, TriggerMessage trigger, JobHandler handler) {}
