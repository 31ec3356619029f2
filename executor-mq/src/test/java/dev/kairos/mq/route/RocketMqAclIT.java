package dev.kairos.mq.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.EmbeddedRocketMq;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.mq.executor.ExecutorSettings;
import dev.kairos.mq.executor.KairosExecutor;
import dev.kairos.mq.executor.ResultReports;
import dev.kairos.mq.slot.SlotLeaseConfig;
import dev.kairos.protocol.DispatchedTriggers;
import dev.kairos.protocol.message.MessageCodec;
import dev.kairos.protocol.message.ProducerDefaults;
import dev.kairos.protocol.message.ResultMessage;
import dev.kairos.protocol.message.ResultStatus;
import dev.kairos.protocol.message.SlotQueueSelector;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.message.TriggerMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kairos's clients against a real broker with RocketMQ 5.3's ACL 2.0 on (authentication and
 * authorization), each signing as its own user holding exactly the {@link KairosAcl} grants: the
 * node's user sends triggers and consumes results, an app's executor runs a trigger end to end, and
 * everything beyond those grants is refused by the broker with its own error (NO_PERMISSION and the
 * reason), not by a timeout.
 *
 * <p>The ACL broker is this class's own (started before, closed after): the shared one of {@link
 * RealInfra} has no ACL and must keep none.
 */
@RealInfra(redis = RedisMode.STANDALONE)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RocketMqAclIT {

  private static final RedisKeys KEYS = new RedisKeys(RedisKeys.DEFAULT_SHARDS);
  private static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration RESULT_TIMEOUT = Duration.ofSeconds(30);
  private static final String HANDLER = "work";
  private static final int QUEUES = 2;

  private static final String SUPER_USER = "kairos-admin";
  private static final String SUPER_PASSWORD = "admin-pw-1";
  private static final RocketMqCredentials NODE =
      new RocketMqCredentials("kairos-node", "node-pw-1");
  private static final RocketMqCredentials APP_A =
      new RocketMqCredentials("kairos-exec-a", "exec-a-pw-1");
  private static final RocketMqCredentials APP_B =
      new RocketMqCredentials("kairos-exec-b", "exec-b-pw-1");
  private static final AtomicInteger SEQ = new AtomicInteger();

  @TempDir static Path dir;

  private final KairosRedis redis;
  private final String suffix = UUID.randomUUID().toString().substring(0, 8);
  private final String appA = "acl-a-" + suffix;
  private final String appB = "acl-b-" + suffix;
  private final MessageCodec codec = new MessageCodec();
  private EmbeddedRocketMq mq;

  RocketMqAclIT(EmbeddedRedis redis) {
    this.redis = KairosRedis.connect(List.of(redis.uri()), false, Duration.ofSeconds(5));
  }

  @BeforeAll
  void broker() {
    redis.sync().hsetnx(RedisKeys.META, "shards", Integer.toString(KEYS.shards()));
    mq = EmbeddedRocketMq.startWithAcl(dir.resolve("rocketmq"), SUPER_USER, SUPER_PASSWORD);
    grant(NODE, KairosAcl.node());
    grant(APP_A, KairosAcl.executor(appA));
    grant(APP_B, KairosAcl.executor(appB));
    // As the nodes do: they create the results topic when they start and a handler topic before
    // its first trigger.
    try (TopicAdmin admin = topicAdmin(NODE)) {
      admin.start();
      admin.ensureTopic(TopicNames.RESULTS, TopicNames.RESULTS_QUEUES, TOPIC_TIMEOUT);
      admin.ensureTopic(TopicNames.handlerTopic(appA, HANDLER), QUEUES, TOPIC_TIMEOUT);
      admin.ensureTopic(TopicNames.handlerTopic(appB, HANDLER), QUEUES, TOPIC_TIMEOUT);
    }
  }

  @AfterAll
  void close() {
    if (mq != null) {
      mq.close();
    }
    redis.close();
  }

  private void grant(RocketMqCredentials user, List<KairosAcl.Grant> grants) {
    mq.createUser(user.accessKey(), user.secretKey());
    for (KairosAcl.Grant grant : grants) {
      mq.createAcl(user.accessKey(), grant.resources(), grant.actions());
    }
  }

  private TopicAdmin topicAdmin(RocketMqCredentials user) {
    return new TopicAdmin(mq.nameServerAddress(), EmbeddedRocketMq.CLUSTER_NAME, user);
  }

  @Test
  void theNodesTriggerRunsOnItsAppsExecutorAndTheNodeConsumesTheResult() throws Exception {
    // What the executor's start does with kairos.executor.create-topics (the default): its own
    // topics may be created, the results topic exists and is left alone.
    try (TopicAdmin admin = topicAdmin(APP_A)) {
      admin.start();
      assertThat(admin.ensureTopic(TopicNames.handlerTopic(appA, "other"), QUEUES, TOPIC_TIMEOUT))
          .isEqualTo(QUEUES);
      admin.ensureTopic(TopicNames.handlerTopic(appA, HANDLER), QUEUES, TOPIC_TIMEOUT);
      admin.ensureTopic(TopicNames.RESULTS, TopicNames.RESULTS_QUEUES, TOPIC_TIMEOUT);
    }

    Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    Queue<ResultMessage> results = new ConcurrentLinkedQueue<>();
    DefaultMQPushConsumer nodeResults =
        new DefaultMQPushConsumer(KairosAcl.NODE_RESULTS_GROUP, NODE.rpcHook());
    DefaultMQProducer nodeTriggers = new DefaultMQProducer("kairos-scheduler", NODE.rpcHook());
    KairosExecutor executor = null;
    try {
      nodeResults.setNamesrvAddr(mq.nameServerAddress());
      nodeResults.setInstanceName("acl-node-results-" + suffix);
      nodeResults.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
      nodeResults.subscribe(TopicNames.RESULTS, "*");
      nodeResults.registerMessageListener(
          (org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently)
              (messages, context) -> {
                messages.forEach(m -> results.add(codec.decodeResult(m.getBody())));
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
              });
      nodeResults.start();
      nodeTriggers.setNamesrvAddr(mq.nameServerAddress());
      nodeTriggers.setInstanceName("acl-node-" + suffix);
      ProducerDefaults.apply(nodeTriggers).start();

      SlotLeaseConfig lease =
          SlotLeaseConfig.of(appA, "instance-" + appA, "localhost", List.of(HANDLER))
              .withSlotCount(QUEUES);
      executor =
          new KairosExecutor(
              redis,
              ExecutorSettings.of(lease, mq.nameServerAddress())
                  .withResultReports(ResultReports.ALL)
                  .withRocketMqCredentials(APP_A),
              Map.of(
                  HANDLER,
                  ctx ->
                      runs.computeIfAbsent(ctx.triggerId(), k -> new AtomicInteger())
                          .incrementAndGet()));
      executor.start();

      TriggerMessage trigger = trigger(appA);
      DispatchedTriggers.write(redis, KEYS, trigger, "DISPATCHED");
      Message message = new Message(TopicNames.handlerTopic(appA, HANDLER), codec.encode(trigger));
      message.setKeys(trigger.messageKey());
      nodeTriggers.send(message, new SlotQueueSelector(), executor.slot());

      ResultMessage result =
          Poll.until(
              RESULT_TIMEOUT,
              Duration.ofMillis(100),
              "the node's result consumer to receive the result of " + trigger.triggerId(),
              () ->
                  results.stream()
                      .filter(r -> r.triggerId().equals(trigger.triggerId()))
                      .findFirst()
                      .orElse(null),
              r -> r != null,
              "a result");
      assertThat(result.status()).isEqualTo(ResultStatus.SUCCESS);
      assertThat(runs.get(trigger.triggerId())).hasValue(1);
    } finally {
      if (executor != null) {
        executor.close();
      }
      nodeTriggers.shutdown();
      nodeResults.shutdown();
    }
  }

  @Test
  void anExecutorsUserCannotSendTriggersNorTouchAnotherAppsTopicsOrGroups() throws Exception {
    String topicA = TopicNames.handlerTopic(appA, HANDLER);
    String topicB = TopicNames.handlerTopic(appB, HANDLER);

    // No forged triggers, not even to its own topics.
    DefaultMQProducer producer = producer(APP_A, "kairos_results_kairos_exec_" + appA);
    try {
      assertRefused(
          () -> producer.send(new Message(topicA, "forged".getBytes())),
          "User:" + APP_A.accessKey() + " has no permission to access Topic:" + topicA);
      assertRefused(
          () -> producer.send(new Message(topicB, "forged".getBytes())),
          "User:" + APP_A.accessKey() + " has no permission to access Topic:" + topicB);
    } finally {
      producer.shutdown();
    }

    // Consumes in its own group, from its own topics only.
    assertRefused(
        () -> pullFirst(APP_A, "kairos_exec_" + appA, topicB),
        "User:" + APP_A.accessKey() + " has no permission to access Topic:" + topicB);
    assertRefused(
        () -> pullFirst(APP_A, "kairos_exec_" + appB, topicA),
        "User:" + APP_A.accessKey() + " has no permission to access Group:kairos_exec_" + appB);
    // The node's user reads no triggers either.
    assertRefused(
        () -> pullFirst(NODE, "kairos_exec_" + appA, topicA),
        "User:" + NODE.accessKey() + " has no permission to access Topic:" + topicA);

    // Creates only its own app's topics, and cannot reconfigure the results topic.
    try (TopicAdmin admin = topicAdmin(APP_A)) {
      admin.start();
      String otherB = TopicNames.handlerTopic(appB, "other");
      assertRefused(
          () -> admin.ensureTopic(otherB, QUEUES, TOPIC_TIMEOUT),
          "User:" + APP_A.accessKey() + " has no permission to access Topic:" + otherB);
      assertRefused(
          () -> admin.ensureTopic(TopicNames.RESULTS, TopicNames.RESULTS_QUEUES + 1, TOPIC_TIMEOUT),
          "User:" + APP_A.accessKey() + " has no permission to access Topic:" + TopicNames.RESULTS);
    }
  }

  @Test
  void unsignedRequestsAndWrongSecretsAreRefused() throws Exception {
    byte[] body = codec.encode(result(trigger(appA)));
    DefaultMQProducer unsigned = producer(RocketMqCredentials.NONE, "acl_unsigned_" + suffix);
    DefaultMQProducer wrongSecret =
        producer(
            new RocketMqCredentials(APP_A.accessKey(), "not-the-secret"), "acl_wrong_" + suffix);
    DefaultMQProducer unknownUser =
        producer(new RocketMqCredentials("nobody", APP_A.secretKey()), "acl_nobody_" + suffix);
    DefaultMQProducer signed = producer(APP_A, "acl_signed_" + suffix);
    try {
      assertRefused(
          () -> unsigned.send(new Message(TopicNames.RESULTS, body)), "username cannot be null");
      assertRefused(
          () -> wrongSecret.send(new Message(TopicNames.RESULTS, body)), "check signature failed");
      assertRefused(
          () -> unknownUser.send(new Message(TopicNames.RESULTS, body)),
          "User:nobody is not found");
      // The same send, signed by the app's user (Pub on the results topic), goes through.
      assertThat(signed.send(new Message(TopicNames.RESULTS, body)).getSendStatus().name())
          .isEqualTo("SEND_OK");
    } finally {
      unsigned.shutdown();
      wrongSecret.shutdown();
      unknownUser.shutdown();
      signed.shutdown();
    }
    // Without credentials the node's topic creation is refused as well.
    try (TopicAdmin admin = topicAdmin(RocketMqCredentials.NONE)) {
      admin.start();
      assertRefused(
          () -> admin.ensureTopic(TopicNames.handlerTopic(appA, "unsigned"), 1, TOPIC_TIMEOUT),
          "username cannot be null");
    }
  }

  private DefaultMQProducer producer(RocketMqCredentials user, String group) throws Exception {
    DefaultMQProducer producer = new DefaultMQProducer(group, user.rpcHook());
    producer.setNamesrvAddr(mq.nameServerAddress());
    producer.setInstanceName(group + "-" + SEQ.incrementAndGet());
    producer.setRetryTimesWhenSendFailed(0);
    producer.start();
    return producer;
  }

  /** One pull of queue 0 of {@code topic} as {@code user} in {@code group}: the broker decides. */
  @SuppressWarnings("deprecation") // the one client whose pull answers with the broker's error
  private void pullFirst(RocketMqCredentials user, String group, String topic) throws Exception {
    DefaultMQPullConsumer consumer = new DefaultMQPullConsumer(group, user.rpcHook());
    consumer.setNamesrvAddr(mq.nameServerAddress());
    consumer.setInstanceName("acl-pull-" + SEQ.incrementAndGet());
    consumer.start();
    try {
      MessageQueue queue =
          consumer.fetchSubscribeMessageQueues(topic).stream()
              .filter(q -> q.getQueueId() == 0)
              .findFirst()
              .orElseThrow();
      consumer.pull(queue, "*", 0, 1);
    } finally {
      consumer.shutdown();
    }
  }

  private TriggerMessage trigger(String app) {
    long fire = System.currentTimeMillis() + SEQ.incrementAndGet();
    String job = app + "-job";
    return TriggerMessage.of(
        job + ":" + fire,
        app,
        HANDLER,
        fire,
        1,
        "",
        0,
        1,
        0,
        BlockStrategy.SERIAL_EXECUTION,
        1,
        fire);
  }

  private static ResultMessage result(TriggerMessage trigger) {
    return ResultMessage.of(trigger, "acl-test", 0, ResultStatus.SUCCESS, 0, 0, "");
  }

  @FunctionalInterface
  private interface Call {
    void run() throws Exception;
  }

  /**
   * {@code call} fails with the broker's NO_PERMISSION answer, whose reason contains {@code why}.
   * The client carries the answer as an MQBrokerException (sends, pulls) or as an MQClientException
   * with the response code (admin calls).
   */
  private static void assertRefused(Call call, String why) {
    Throwable thrown = catchThrowable(call::run);
    assertThat(thrown).as("refused").isNotNull();
    Integer code = null;
    String reason = null;
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      if (t instanceof MQBrokerException e) {
        code = e.getResponseCode();
        reason = e.getErrorMessage();
        break; // the broker's own answer, under any client wrapper
      } else if (t instanceof MQClientException e && e.getResponseCode() != -1 && code == null) {
        code = e.getResponseCode();
        reason = e.getErrorMessage();
      }
    }
    assertThat(code).as("the broker's answer in %s", thrown).isEqualTo(ResponseCode.NO_PERMISSION);
    assertThat(reason).contains(why);
  }
}
