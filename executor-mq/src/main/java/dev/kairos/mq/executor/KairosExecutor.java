package dev.kairos.mq.executor;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.model.TriggerState;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.mq.Lifecycle;
import dev.kairos.mq.contract.MalformedMessageException;
import dev.kairos.mq.contract.MessageCodec;
import dev.kairos.mq.contract.ResultMessage;
import dev.kairos.mq.contract.ResultStatus;
import dev.kairos.mq.contract.TopicNames;
import dev.kairos.mq.contract.TriggerMessage;
import dev.kairos.mq.executor.ExecutorCounters.Outcome;
import dev.kairos.mq.route.SlotQueueSelector;
import dev.kairos.mq.slot.SlotLease;
import dev.kairos.mq.start.StartOutcome;
import dev.kairos.mq.start.StartRequest;
import dev.kairos.mq.start.TriggerRecords;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An executor instance: leases a slot of its app, consumes that slot's queue of every hosted
 * handler topic with one lite-pull consumer ({@code assign()}, manual offsets), claims each
 * trigger's start in Redis as the handler starts, applies the job's block strategy and timeout,
 * records the end in Redis and publishes the result on {@link TopicNames#RESULTS}.
 *
 * <p>Threads: one poll thread (the only one touching the consumer), a bounded pool of worker
 * threads running handlers, one timer thread for timeouts, the lease's renewal thread.
 */
public final class KairosExecutor implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(KairosExecutor.class);

  private final KairosRedis redis;
  private final ExecutorSettings settings;
  private final Map<String, JobHandler> handlers;
  private final Lifecycle lifecycle = new Lifecycle("KairosExecutor");
  private final MessageCodec codec = new MessageCodec();
  private final OffsetTracker offsets = new OffsetTracker();
  private final Map<String, JobRunner> runners = new ConcurrentHashMap<>();
  private final AtomicInteger activeRuns = new AtomicInteger();
  private final ExecutorCounters counters;
  private final AtomicBoolean consumerStopped = new AtomicBoolean();

  /** Runs that started on this instance and have not ended, by trigger id (for cancels). */
  private final Map<String, Run> running = new ConcurrentHashMap<>();

  private TriggerRecords records;
  private SlotLease lease;
  private DefaultMQProducer producer;
  private DefaultLitePullConsumer consumer;
  private ExecutorService workers;
  private ScheduledExecutorService timers;
  private Thread poller;
  private CancelWatcher cancels;

  /**
   * @param handlers handler name → code; must be exactly the handlers named in the lease config
   */
  public KairosExecutor(
      KairosRedis redis, ExecutorSettings settings, Map<String, JobHandler> handlers) {
    this.redis = redis;
    this.settings = settings;
    this.handlers = Map.copyOf(handlers);
    this.counters = new ExecutorCounters(this.handlers.keySet());
    if (!new HashSet<>(settings.lease().handlers()).equals(this.handlers.keySet())) {
      throw new IllegalArgumentException(
          "handlers "
              + this.handlers.keySet()
              + " differ from the lease's "
              + settings.lease().handlers());
    }
  }

  /** Leases a slot and starts consuming; throws if no slot is free or a topic is too small. */
  public void start() {
    lifecycle.start();
    String app = settings.lease().app();
    try {
      records = TriggerRecords.connect(redis, settings.dedupWindow());
      lease = new SlotLease(redis, settings.lease());
      lease.start();
      producer = new DefaultMQProducer("kairos_results_" + settings.consumerGroup());
      producer.setNamesrvAddr(settings.nameServerAddress());
      producer.setInstanceName(settings.lease().instanceId());
      producer.start();
      consumer = new DefaultLitePullConsumer(settings.consumerGroup());
      consumer.setNamesrvAddr(settings.nameServerAddress());
      consumer.setInstanceName(settings.lease().instanceId());
      consumer.setAutoCommit(false);
      // A new app consumes what was sent before its first instance came up.
      consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
      consumer.setPullBatchSize(32);
      consumer.start();
      List<MessageQueue> mine = new ArrayList<>();
      for (String handler : settings.lease().handlers()) {
        String topic = TopicNames.handlerTopic(app, handler);
        mine.add(SlotQueueSelector.queueOf(consumer.fetchMessageQueues(topic), lease.slot()));
      }
      consumer.assign(mine);
      workers =
          Executors.newFixedThreadPool(settings.workerThreads(), named("kairos-worker-" + app));
      timers = Executors.newSingleThreadScheduledExecutor(named("kairos-timeouts-" + app));
      poller = named("kairos-poll-" + app).newThread(this::pollLoop);
      poller.start();
      cancels =
          new CancelWatcher(
              redis, app, this::cancelRun, System::currentTimeMillis, counters.errors::increment);
      cancels.start();
      log.info("executor {} of app {} consumes {}", lease.instanceId(), app, mine);
    } catch (RuntimeException e) {
      close();
      throw e;
    } catch (Exception e) {
      close();
      throw new KairosException("cannot start executor of app " + app + ": " + e.getMessage(), e);
    }
  }

  public int slot() {
    return lease.slot();
  }

  /** Whether this instance is consuming: started, its lease trusted, its consumer running. */
  public boolean isConsuming() {
    return lifecycle.isStarted() && lease != null && lease.isValid() && !consumerStopped.get();
  }

  /** Counters of the whole instance since it was created. */
  public ExecutorStats stats() {
    return counters.total();
  }

  /** Counters of one hosted handler; throws for a handler this instance does not host. */
  public ExecutorStats stats(String handler) {
    return counters.of(handler);
  }

  public ExecutorSettings settings() {
    return settings;
  }

  /** Runs interrupted and recorded CANCELLED on an operator's request since start. */
  public long cancelledRuns() {
    return counters.cancelled.sum();
  }

  /** Called by the cancel watcher for every recent request of the app; idempotent. */
  private void cancelRun(String triggerId) {
    Run run = running.get(triggerId);
    if (run != null && run.cancel()) {
      log.info("trigger {} cancelled by an operator: interrupting its handler", triggerId);
    }
  }

  /** Runs on the poll thread only; catches at the boundary so the loop survives outages. */
  private void pollLoop() {
    while (lifecycle.isStarted()) {
      try {
        if (lease.isLost()) {
          log.error(
              "executor {} lost slot {}: it stops consuming and leaves the queue to the slot's"
                  + " next owner; restart it to claim a slot again",
              lease.instanceId(),
              lease.slot());
          counters.leaseLost.increment();
          stopConsumer();
          return;
        }
        if (!lease.isValid() || offsets.pendingCount() >= settings.maxInFlight()) {
          commit();
          Thread.sleep(20);
          continue;
        }
        List<MessageExt> messages = consumer.poll(settings.pollTimeout().toMillis());
        for (MessageExt message : messages) {
          accept(message);
        }
        commit();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        counters.errors.increment();
        log.warn("executor poll loop failed, will keep running", e);
      }
    }
  }

  private void commit() {
    Map<MessageQueue, Long> commit = offsets.committable();
    if (!commit.isEmpty()) {
      consumer.commitSync(commit, true);
    }
  }

  private void accept(MessageExt message) {
    MessageQueue queue =
        new MessageQueue(message.getTopic(), message.getBrokerName(), message.getQueueId());
    long offset = message.getQueueOffset();
    offsets.received(queue, offset);
    TriggerMessage trigger;
    try {
      trigger = codec.decodeTrigger(message.getBody());
    } catch (MalformedMessageException e) {
      counters.malformed.increment();
      log.warn(
          "skipping malformed message {} on {}: {}", message.getMsgId(), queue, e.getMessage());
      offsets.done(queue, offset);
      return;
    }
    JobHandler handler = handlers.get(trigger.handler());
    if (handler == null) {
      log.warn("trigger {} names handler {} which is not hosted", trigger.triggerId(), trigger);
      offsets.done(queue, offset);
      counters.count(trigger.handler(), Outcome.FAILED);
      report(trigger, ResultStatus.FAIL, 0, "handler " + trigger.handler() + " is not hosted");
      return;
    }
    log.debug(
        "received {} ({}) from {} at offset {}",
        trigger.triggerId(),
        trigger.blockStrategy(),
        queue,
        offset);
    Delivery delivery = new Delivery(queue, offset, trigger, handler);
    runners.compute(
        trigger.jobId(),
        (job, runner) -> {
          JobRunner r = runner != null ? runner : new JobRunner(this::launch, this::discardLater);
          r.submit(delivery);
          return r;
        });
  }

  /**
   * Hands a run to the worker pool. During shutdown the pool refuses new work: the delivery then
   * stays uncommitted, so the slot's next owner (or this instance after a restart) receives it.
   */
  private void launch(Run run) {
    try {
      workers.execute(() -> execute(run));
    } catch (RejectedExecutionException e) {
      log.info("not starting {}: the executor is stopping", run.delivery.trigger().triggerId());
    }
  }

  private void discardLater(Delivery delivery) {
    try {
      workers.execute(() -> discardNow(delivery));
    } catch (RejectedExecutionException e) {
      log.info("not judging {}: the executor is stopping", delivery.trigger().triggerId());
    }
  }

  private void discardNow(Delivery delivery) {
    StartOutcome outcome = claim(delivery);
    if (outcome == null || !outcome.started()) {
      return;
    }
    TriggerMessage t = delivery.trigger();
    String why = "discarded: job " + t.jobId() + " is already running (DISCARD_LATER)";
    complete(t, TriggerState.DISCARDED, why);
    counters.count(t.handler(), Outcome.DISCARDED);
    report(t, ResultStatus.DISCARDED, outcome.startedMs(), why);
  }

  /**
   * Claims the start of a delivery; reports and returns the outcome, or null when the claim could
   * not be made (the lease is no longer trusted, or Redis failed): then the offset stays
   * uncommitted so the slot's next owner, or the scheduler's re-dispatch, brings it back.
   */
  private StartOutcome claim(Delivery delivery) {
    if (!lease.isValid()) {
      return null;
    }
    log.debug("claiming the start of {}", delivery.trigger().triggerId());
    StartOutcome outcome;
    try {
      outcome =
          records.claimStart(StartRequest.of(delivery.trigger(), lease.instanceId(), lease.slot()));
    } catch (RuntimeException e) {
      counters.errors.increment();
      log.warn("start claim of {} failed: {}", delivery.trigger().triggerId(), e.toString());
      return null;
    }
    offsets.done(delivery.queue(), delivery.offset());
    switch (outcome.kind()) {
      case STARTED -> counters.count(delivery.trigger().handler(), Outcome.STARTED);
      case DUPLICATE -> {
        counters.count(delivery.trigger().handler(), Outcome.DUPLICATE);
        report(delivery.trigger(), ResultStatus.DUPLICATE, 0, "already " + outcome.stateFound());
      }
      case EXPIRED -> {
        counters.count(delivery.trigger().handler(), Outcome.EXPIRED);
        report(delivery.trigger(), ResultStatus.EXPIRED, 0, "older than the dedup window");
      }
    }
    return outcome;
  }

  /** Runs on a worker thread. */
  private void execute(Run run) {
    TriggerMessage t = run.delivery.trigger();
    try {
      run.begin();
      StartOutcome outcome = claim(run.delivery);
      if (outcome == null || !outcome.started()) {
        return;
      }
      if (run.covers != null) {
        run.covers.interrupt(false);
      }
      running.put(t.triggerId(), run);
      lease.setBusy(activeRuns.incrementAndGet() >= settings.workerThreads());
      ScheduledFuture<?> timer =
          t.timeoutMs() > 0
              ? timers.schedule(() -> run.interrupt(true), t.timeoutMs(), TimeUnit.MILLISECONDS)
              : null;
      ResultStatus status;
      String message = "";
      JobContext context = JobContext.of(t);
      try {
        run.delivery.handler().execute(context);
        status = ResultStatus.SUCCESS;
      } catch (Exception | LinkageError | AssertionError e) {
        status = ResultStatus.FAIL;
        message = e.toString();
        if (e instanceof InterruptedException && !lifecycle.isStarted()) {
          message = "interrupted: the executor is shutting down; " + message;
        }
      } finally {
        if (timer != null) {
          timer.cancel(false);
        }
        run.end();
        running.remove(t.triggerId(), run);
        lease.setBusy(activeRuns.decrementAndGet() >= settings.workerThreads());
      }
      if (run.timedOut()) {
        status = ResultStatus.TIMEOUT;
        message = "timed out after " + t.timeoutMs() + " ms; " + message;
      } else if (run.covered()) {
        status = ResultStatus.DISCARDED;
        message = "covered by a newer run (COVER_EARLY); " + message;
      } else if (run.cancelled()) {
        if (status == ResultStatus.FAIL) {
          // The handler ended by throwing after the interrupt: the cancel took effect.
          status = ResultStatus.CANCELLED;
          counters.cancelled.increment();
          message = "cancelled by an operator; " + message;
        } else {
          message = "cancel requested, but the handler finished anyway; " + message;
        }
      }
      counters.count(
          t.handler(),
          switch (status) {
            case SUCCESS -> Outcome.SUCCEEDED;
            case TIMEOUT -> Outcome.TIMED_OUT;
            case DISCARDED -> Outcome.DISCARDED;
            case CANCELLED -> Outcome.CANCELLED;
            default -> Outcome.FAILED;
          });
      String logText = context.log().text();
      if (!logText.isEmpty()) {
        message = message.isEmpty() ? logText : message + "\n" + logText;
      }
      complete(t, TriggerState.valueOf(status.name()), message);
      report(t, status, outcome.startedMs(), message);
    } catch (RuntimeException e) {
      counters.errors.increment();
      log.warn("running trigger {} failed outside the handler", t.triggerId(), e);
    } finally {
      run.end();
      finished(run);
    }
  }

  private void finished(Run run) {
    String job = run.delivery.trigger().jobId();
    JobRunner runner = runners.get(job);
    if (runner != null) {
      runner.finished(run);
      runners.computeIfPresent(job, (k, r) -> r.isIdle() ? null : r);
    }
  }

  private void complete(TriggerMessage t, TriggerState state, String message) {
    try {
      records.complete(
          t.triggerId(),
          t.jobId(),
          t.scheduledFireMs(),
          lease.instanceId(),
          state,
          ResultMessage.truncate(message));
    } catch (RuntimeException e) {
      counters.errors.increment();
      log.warn("recording the end of {} failed: {}", t.triggerId(), e.toString());
    }
  }

  private void report(TriggerMessage t, ResultStatus status, long startedMs, String text) {
    try {
      ResultMessage result =
          ResultMessage.of(
              t,
              lease.instanceId(),
              lease.slot(),
              status,
              startedMs,
              System.currentTimeMillis(),
              text);
      producer.send(codec.toMessage(result));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      counters.errors.increment();
    } catch (Exception e) {
      counters.errors.increment();
      log.warn("publishing the {} result of {} failed: {}", status, t.triggerId(), e.toString());
    }
  }

  /**
   * Commits what is done and shuts the consumer down, once. Shutting down (rather than just not
   * polling) matters after a lost lease: the client would otherwise keep persisting this instance's
   * stale offsets for a queue that now belongs to another instance.
   */
  private void stopConsumer() {
    if (consumer == null || !consumerStopped.compareAndSet(false, true)) {
      return;
    }
    try {
      commit();
    } catch (RuntimeException e) {
      log.warn("final offset commit failed; the next owner may see some copies again", e);
    }
    consumer.shutdown();
  }

  private static ThreadFactory named(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread thread = new Thread(r, prefix + "-" + n.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  /**
   * Lets running handlers finish within the shutdown grace, then interrupts them and waits a little
   * more so their results are still recorded and published (the producer and lease are still up).
   */
  private void stopWorkers() {
    workers.shutdown();
    try {
      if (workers.awaitTermination(settings.shutdownGrace().toMillis(), TimeUnit.MILLISECONDS)) {
        return;
      }
      log.warn(
          "handlers still running after the shutdown grace of {}; interrupting them",
          settings.shutdownGrace());
      workers.shutdownNow();
      if (!workers.awaitTermination(2, TimeUnit.SECONDS)) {
        log.warn("handlers ignore interruption; their results will not be reported");
      }
    } catch (InterruptedException e) {
      workers.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Stops polling (what was received but not started stays uncommitted for the slot's next owner),
   * lets running handlers finish within {@link ExecutorSettings#shutdownGrace()}, records and
   * reports them, commits offsets, then releases the slot.
   */
  @Override
  public void close() {
    if (!lifecycle.close()) {
      return;
    }
    if (cancels != null) {
      cancels.close();
    }
    if (poller != null) {
      poller.interrupt();
      try {
        poller.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (workers != null) {
      stopWorkers();
    }
    if (timers != null) {
      timers.shutdownNow();
    }
    stopConsumer();
    if (producer != null) {
      producer.shutdown();
    }
    if (lease != null) {
      lease.close();
    }
  }
}
