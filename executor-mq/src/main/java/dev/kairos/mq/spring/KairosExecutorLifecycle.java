package dev.kairos.mq.spring;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.mq.executor.ExecutorMetrics;
import dev.kairos.mq.executor.ExecutorSettings;
import dev.kairos.mq.executor.JobHandler;
import dev.kairos.mq.executor.KairosExecutor;
import dev.kairos.mq.route.TopicAdmin;
import dev.kairos.mq.slot.SlotLeaseConfig;
import dev.kairos.protocol.message.TopicNames;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Runs the application's {@link KairosExecutor} with the Spring context: at start it creates the
 * handler topics, calls the handlers' init methods, starts the executor (slot lease, consumer) and
 * binds its metrics; at stop it closes the executor gracefully (no new messages, running handlers
 * finish within the shutdown grace and are reported, the slot is released), then calls the destroy
 * methods. With no {@link KairosJob} method in the context it does nothing. Start and stop are
 * called by the context's thread; {@link #isRunning()} may be read by any thread.
 */
public final class KairosExecutorLifecycle implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(KairosExecutorLifecycle.class);

  private final KairosRedis redis;
  private final KairosExecutorProperties properties;
  private final KairosJobCollector collector;
  private final MeterRegistry meterRegistry;
  private volatile KairosExecutor executor;
  private List<CollectedJob> initialised = List.of();

  /**
   * @param meterRegistry where the executor's counters are published, or null for none
   */
  public KairosExecutorLifecycle(
      KairosRedis redis,
      KairosExecutorProperties properties,
      KairosJobCollector collector,
      MeterRegistry meterRegistry) {
    this.redis = redis;
    this.properties = properties;
    this.collector = collector;
    this.meterRegistry = meterRegistry;
  }

  @Override
  public void start() {
    Map<String, CollectedJob> jobs = collector.jobs();
    if (jobs.isEmpty()) {
      log.warn("kairos.executor is enabled but no bean has a job handler method; not starting");
      return;
    }
    String app = properties.getApp();
    if (app == null || app.isBlank()) {
      throw new IllegalStateException(
          "kairos.executor.app must be set: the context has @KairosJob handlers " + jobs.keySet());
    }
    ExecutorSettings settings = settings(app, List.copyOf(jobs.keySet()));
    if (properties.isCreateTopics()) {
      createTopics(app, jobs.keySet());
    }
    List<CollectedJob> started = new ArrayList<>();
    try {
      for (CollectedJob job : jobs.values()) {
        job.init();
        started.add(job);
      }
      initialised = started;
      KairosExecutor created = new KairosExecutor(redis, settings, new LinkedHashMap<>(jobs));
      created.start();
      executor = created;
      if (meterRegistry != null) {
        new ExecutorMetrics(created).bindTo(meterRegistry);
      }
      log.info("Kairos executor of app {} hosts {} in slot {}", app, jobs.keySet(), created.slot());
    } catch (Exception e) {
      destroy();
      throw new IllegalStateException(
          "cannot start the Kairos executor of app " + app + ": " + e.getMessage(), e);
    }
  }

  private ExecutorSettings settings(String app, List<String> handlers) {
    String instanceId =
        properties.getInstanceId().isBlank()
            ? UUID.randomUUID().toString()
            : properties.getInstanceId();
    SlotLeaseConfig lease =
        new SlotLeaseConfig(
            app,
            instanceId,
            properties.getHost().isBlank() ? localHost() : properties.getHost(),
            handlers,
            properties.getSlotCount(),
            properties.getLeaseTtl(),
            properties.getLeaseRenewInterval(),
            properties.getLeaseSafetyMargin());
    return ExecutorSettings.builder(lease, properties.getNameServer())
        .workerThreads(properties.getWorkerThreads())
        .maxInFlight(properties.getMaxInFlight())
        .dedupWindow(properties.getDedupWindow())
        .pollTimeout(properties.getPollTimeout())
        .shutdownGrace(properties.getShutdownGrace())
        .resultReports(properties.getResultReports())
        .log(properties.getLog().settings())
        .routeTimeout(properties.getTopicTimeout())
        .secretParams(properties.secretParams())
        .rocketMqCredentials(properties.rocketMqCredentials())
        .build();
  }

  private void createTopics(String app, Iterable<String> handlers) {
    try (TopicAdmin admin =
        new TopicAdmin(
            properties.getNameServer(),
            properties.getBrokerCluster(),
            properties.rocketMqCredentials())) {
      admin.start();
      for (String handler : handlers) {
        admin.ensureTopic(
            TopicNames.handlerTopic(app, handler),
            properties.getSlotCount(),
            properties.getTopicTimeout());
      }
      admin.ensureTopic(
          TopicNames.RESULTS, TopicNames.RESULTS_QUEUES, properties.getTopicTimeout());
    }
  }

  private static String localHost() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (Exception e) {
      return "unknown";
    }
  }

  /** Closes the executor gracefully, then calls the destroy methods. */
  @Override
  public void stop() {
    KairosExecutor running = executor;
    executor = null;
    if (running != null) {
      running.close();
      log.info("Kairos executor of app {} stopped: {}", properties.getApp(), running.stats());
    }
    destroy();
  }

  private void destroy() {
    for (CollectedJob job : initialised) {
      try {
        job.destroy();
      } catch (Exception e) {
        log.warn("destroy method of handler \"{}\" ({}) failed", job.handler(), job.describe(), e);
      }
    }
    initialised = List.of();
  }

  @Override
  public boolean isRunning() {
    return executor != null;
  }

  /** The running executor (for its slot and stats), or null when not running. */
  public KairosExecutor executor() {
    return executor;
  }

  /** Handler name → handler of the @KairosJob methods found in the context. */
  public Map<String, JobHandler> handlers() {
    return new LinkedHashMap<>(collector.jobs());
  }
}
