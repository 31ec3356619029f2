package dev.kairos.node.testing;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.mq.executor.ExecutorSettings;
import dev.kairos.mq.executor.JobHandler;
import dev.kairos.mq.executor.KairosExecutor;
import dev.kairos.mq.route.TopicAdmin;
import dev.kairos.mq.slot.SlotLeaseConfig;
import dev.kairos.protocol.message.TopicNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/**
 * The executor side of an end-to-end IT: one app's handler topics (and the results topic) made on
 * the test's broker, one Redis connection to the test's Redis (cluster or standalone, whichever the
 * infrastructure runs), and {@code count} executors in the test's JVM, each able to run every
 * handler. Every handler run is recorded with the executor's wall clock (one JVM, so the runs of
 * all executors compare).
 */
public final class InProcessExecutors implements AutoCloseable {

  /** One handler run as the executor saw it. */
  public record Run(
      String triggerId, String jobId, int attempt, String params, long startMs, long endMs) {}

  private final KairosRedis redis;
  private final List<KairosExecutor> executors;
  private final List<Run> runs;

  private InProcessExecutors(KairosRedis redis, List<KairosExecutor> executors, List<Run> runs) {
    this.redis = redis;
    this.executors = executors;
    this.runs = runs;
  }

  public static Builder builder(EmbeddedInfrastructure infra, String app) {
    return new Builder(infra, app);
  }

  /** Every handler run so far, in the order they ended. */
  public List<Run> runs() {
    return Collections.unmodifiableList(runs);
  }

  public List<Run> runsOf(String jobId) {
    return runs.stream().filter(r -> r.jobId().equals(jobId)).toList();
  }

  /** The {@code i}-th executor started (from 0), for what only the executor itself can tell. */
  public KairosExecutor executor(int i) {
    return executors.get(i);
  }

  /** The connection the executors share; the test may read Redis through it. */
  public KairosRedis redis() {
    return redis;
  }

  @Override
  public void close() {
    for (KairosExecutor executor : executors) {
      executor.close();
    }
    redis.close();
  }

  public static final class Builder {
    private static final Duration TOPIC_WAIT = Duration.ofSeconds(40);

    private final EmbeddedInfrastructure infra;
    private final String app;
    private final Map<String, JobHandler> handlers = new LinkedHashMap<>();
    private int slots = 2;
    private int count = 1;
    private String name;
    private UnaryOperator<ExecutorSettings> settings = UnaryOperator.identity();

    private Builder(EmbeddedInfrastructure infra, String app) {
      this.infra = infra;
      this.app = app;
      this.name = app + "-executor";
    }

    /** The app's executor slots (= queues of each handler topic). */
    public Builder slots(int slots) {
      this.slots = slots;
      return this;
    }

    /** How many executors to start (each named {@code name-i} when more than one). */
    public Builder executors(int count) {
      this.count = count;
      return this;
    }

    public Builder name(String name) {
      this.name = name;
      return this;
    }

    /** Changes the executors' settings from those made of app, name, handlers and slots. */
    public Builder settings(UnaryOperator<ExecutorSettings> settings) {
      this.settings = settings;
      return this;
    }

    public Builder handler(String handler, JobHandler body) {
      handlers.put(handler, body);
      return this;
    }

    public InProcessExecutors start() {
      List<String> names = List.copyOf(handlers.keySet());
      try (TopicAdmin admin = new TopicAdmin(infra.rocketMq().nameServerAddress(), "kairos")) {
        admin.start();
        for (String handler : names) {
          admin.ensureTopic(TopicNames.handlerTopic(app, handler), slots, TOPIC_WAIT);
        }
        admin.ensureTopic(TopicNames.RESULTS, TopicNames.RESULTS_QUEUES, TOPIC_WAIT);
      }
      KairosRedis redis =
          infra.redisCluster() != null
              ? KairosRedis.connect(infra.redisCluster().uris(), true, Duration.ofSeconds(5))
              : KairosRedis.connect(List.of(infra.redis().uri()), false, Duration.ofSeconds(5));
      List<Run> runs = new CopyOnWriteArrayList<>();
      Map<String, JobHandler> recorded = new LinkedHashMap<>();
      handlers.forEach((handler, body) -> recorded.put(handler, recorded(body, runs)));
      List<KairosExecutor> executors = new ArrayList<>();
      InProcessExecutors started = new InProcessExecutors(redis, executors, runs);
      try {
        for (int i = 0; i < count; i++) {
          KairosExecutor executor =
              new KairosExecutor(
                  redis,
                  settings.apply(
                      ExecutorSettings.of(
                          SlotLeaseConfig.of(
                                  app, count == 1 ? name : name + "-" + i, "localhost", names)
                              .withSlotCount(slots),
                          infra.rocketMq().nameServerAddress())),
                  recorded);
          executors.add(executor);
          executor.start();
        }
      } catch (RuntimeException e) {
        started.close();
        throw e;
      }
      return started;
    }

    private static JobHandler recorded(JobHandler body, List<Run> runs) {
      return ctx -> {
        long start = System.currentTimeMillis();
        try {
          body.execute(ctx);
        } finally {
          runs.add(
              new Run(
                  ctx.triggerId(),
                  ctx.jobId(),
                  ctx.attempt(),
                  ctx.params(),
                  start,
                  System.currentTimeMillis()));
        }
      };
    }
  }
}
