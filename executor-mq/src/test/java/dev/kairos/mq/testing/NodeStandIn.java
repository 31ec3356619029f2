package dev.kairos.mq.testing;

import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRocketMq;
import dev.kairos.devinfra.Poll;
import dev.kairos.mq.route.TopicAdmin;
import dev.kairos.protocol.DispatchedTriggers;
import dev.kairos.protocol.message.MessageCodec;
import dev.kairos.protocol.message.ResultMessage;
import dev.kairos.protocol.message.ResultStatus;
import dev.kairos.protocol.message.SlotQueueSelector;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.message.TriggerMessage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Plays the scheduler node's part for an executor under test, against the real broker and Redis:
 * records a trigger the way a node does before it publishes it, sends it to a slot's queue, and
 * collects the app's results from the result topic. Shared by the executor, starter, built-in
 * handler and xxl-job compatibility tests, which otherwise each wrote their own.
 */
public final class NodeStandIn implements AutoCloseable {

  /** The shard layout the stand-in writes trigger records with (the node's default). */
  public static final RedisKeys KEYS = new RedisKeys(RedisKeys.DEFAULT_SHARDS);

  /** How long a wait for results lasts unless the test says otherwise. */
  public static final Duration DEADLINE = Duration.ofSeconds(60);

  private static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(40);

  private final EmbeddedRocketMq mq;
  private final KairosRedis redis;
  private final String app;
  private final MessageCodec codec = new MessageCodec();
  private final List<ResultMessage> results = new CopyOnWriteArrayList<>();
  private final DefaultMQProducer producer;
  private final AtomicLong lastFireMs = new AtomicLong();
  private DefaultLitePullConsumer resultConsumer;

  /**
   * Records the shard count in the cluster metadata (as the first node does) and starts a trigger
   * producer; results are read once {@link #consumeResults()} was called.
   */
  public NodeStandIn(EmbeddedRocketMq mq, KairosRedis redis, String app) throws MQClientException {
    this.mq = mq;
    this.redis = redis;
    this.app = app;
    redis.sync().hsetnx(RedisKeys.META, "shards", Integer.toString(KEYS.shards()));
    producer = new DefaultMQProducer("test_producer_" + app);
    producer.setNamesrvAddr(mq.nameServerAddress());
    producer.setInstanceName("test-producer-" + app);
    producer.start();
  }

  public String app() {
    return app;
  }

  /** Creates the handler topics with {@code queues} queues each, and the result topic. */
  public NodeStandIn createTopics(int queues, String... handlers) {
    try (TopicAdmin admin = new TopicAdmin(mq.nameServerAddress(), "kairos")) {
      admin.start();
      for (String handler : handlers) {
        admin.ensureTopic(TopicNames.handlerTopic(app, handler), queues, TOPIC_TIMEOUT);
      }
      admin.ensureTopic(TopicNames.RESULTS, 1, TOPIC_TIMEOUT);
    }
    return this;
  }

  /** Starts reading the result topic from its start (it must exist by now). */
  public NodeStandIn consumeResults() throws MQClientException {
    resultConsumer = new DefaultLitePullConsumer("test_results_" + app);
    resultConsumer.setNamesrvAddr(mq.nameServerAddress());
    resultConsumer.setInstanceName("test-results-" + app);
    resultConsumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
    resultConsumer.start();
    resultConsumer.assign(resultConsumer.fetchMessageQueues(TopicNames.RESULTS));
    return this;
  }

  /** A trigger of job {@code <app>-<job>}, due now, not broadcast, without timeout. */
  public TriggerMessage trigger(String job, String handler, String params) {
    return trigger(job, handler, params, 0, 0, 1);
  }

  /**
   * A trigger of job {@code <app>-<job>} due now (a millisecond later than the previous one, so ids
   * never repeat), with a broadcast shard when {@code shardTotal > 1}; not recorded yet.
   */
  public TriggerMessage trigger(
      String job, String handler, String params, long timeoutMs, int shardIndex, int shardTotal) {
    String jobId = app + "-" + job;
    long fire = lastFireMs.updateAndGet(last -> Math.max(System.currentTimeMillis(), last + 1));
    String id = jobId + ":" + fire + (shardTotal > 1 ? "#" + shardIndex + "/" + shardTotal : "");
    return TriggerMessage.of(
        id,
        app,
        handler,
        fire,
        1,
        params,
        shardIndex,
        shardTotal,
        timeoutMs,
        BlockStrategy.SERIAL_EXECUTION,
        1,
        fire);
  }

  /** Writes {@code trigger}'s record in {@code state}, as a node does before it publishes. */
  public TriggerMessage record(TriggerMessage trigger, String state) {
    DispatchedTriggers.write(redis, KEYS, trigger, state);
    return trigger;
  }

  /** Sends {@code copies} copies of {@code trigger} to {@code slot}'s queue. */
  public void send(TriggerMessage trigger, int slot, int copies) throws Exception {
    for (int i = 0; i < copies; i++) {
      Message message = codec.toMessage(trigger);
      producer.send(message, new SlotQueueSelector(), slot);
    }
  }

  /** Sends {@code trigger} once to {@code slot}'s queue. */
  public void send(TriggerMessage trigger, int slot) throws Exception {
    send(trigger, slot, 1);
  }

  /**
   * Sends {@code burst} (triggers of one handler) as one batch message to {@code slot}'s queue, as
   * a node sends the triggers it dispatches together.
   */
  public void sendBatch(List<TriggerMessage> burst, int slot) throws Exception {
    TriggerMessage first = burst.get(0);
    Message message =
        new Message(
            TopicNames.handlerTopic(first.app(), first.handler()), codec.encodeBatch(burst));
    producer.send(message, new SlotQueueSelector(), slot);
  }

  /** The app's results read so far, in the order they were read. */
  public List<ResultMessage> results() {
    return results;
  }

  /** Reads results until {@code done} holds, failing after {@code timeout} with what was read. */
  public void awaitResults(String what, Duration timeout, BooleanSupplier done) {
    Poll.until(
        timeout,
        Duration.ofMillis(1),
        what + " (results so far: " + results + ")",
        () -> {
          drain();
          return done.getAsBoolean();
        });
  }

  /**
   * The first result of {@code trigger} that {@code wanted} accepts, read within {@link #DEADLINE}.
   */
  public ResultMessage awaitResult(TriggerMessage trigger, Predicate<ResultMessage> wanted) {
    Predicate<ResultMessage> match =
        r -> r.triggerId().equals(trigger.triggerId()) && wanted.test(r);
    awaitResults(
        "a result of " + trigger.triggerId(), DEADLINE, () -> results.stream().anyMatch(match));
    return results.stream().filter(match).findFirst().orElseThrow();
  }

  /** The first result of {@code trigger}, read within {@link #DEADLINE}. */
  public ResultMessage awaitResult(TriggerMessage trigger) {
    return awaitResult(trigger, r -> true);
  }

  /** The first result of {@code trigger} in {@code status}, read within {@link #DEADLINE}. */
  public ResultMessage awaitResult(TriggerMessage trigger, ResultStatus status) {
    return awaitResult(trigger, r -> r.status() == status);
  }

  /** The state of {@code trigger}'s record in Redis, or null when there is none. */
  public String recordedState(TriggerMessage trigger) {
    return redis
        .sync()
        .hget(RedisKeys.trigger(KEYS.shardOf(trigger.jobId()), trigger.triggerId()), "state");
  }

  /** Waits until {@code trigger}'s record is in {@code state}. */
  public void awaitRecordedState(TriggerMessage trigger, String state) {
    Poll.until(
        DEADLINE,
        state + " record of " + trigger.triggerId(),
        () -> state.equals(recordedState(trigger)));
  }

  private void drain() {
    if (resultConsumer == null) {
      throw new IllegalStateException("results are read only after consumeResults()");
    }
    for (MessageExt m : resultConsumer.poll(100)) {
      ResultMessage r = codec.decodeResult(m.getBody());
      if (r.jobId().startsWith(app)) {
        results.add(r);
      }
    }
  }

  @Override
  public void close() {
    if (resultConsumer != null) {
      resultConsumer.shutdown();
    }
    producer.shutdown();
  }
}
