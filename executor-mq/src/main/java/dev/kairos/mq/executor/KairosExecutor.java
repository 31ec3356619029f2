package dev.kairos.mq.executor;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.model.TriggerState;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.mq.Lifecycle;
import dev.kairos.mq.executor.ExecutorCounters.Outcome;
import dev.kairos.mq.log.TriggerLogShipper;
import dev.kairos.mq.slot.NoFreeSlotException;
import dev.kairos.mq.slot.SlotLease;
import dev.kairos.protocol.message.MalformedMessageException;
import dev.kairos.protocol.message.MessageCodec;
import dev.kairos.protocol.message.ProducerDefaults;
import dev.kairos.protocol.message.ResultMessage;
import dev.kairos.protocol.message.ResultStatus;
import dev.kairos.protocol.message.SlotQueueSelector;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.message.TriggerMessage;
import dev.kairos.protocol.start.StartOutcome;
import dev.kairos.protocol.start.StartRequest;
import dev.kairos.protocol.start.TriggerRecords;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
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
import java.util.concurrent.atomic.LongAdder;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An executor instance: leases a slot of its app, consumes that slot's queue of every hosted
 * handler topic with one lite-pull consumer ({@code assign()}, manual offsets), claims each
 * trigger's start in Redis as the handler starts, applies the job's block strategy and timeout, and
 * records the end in Redis without holding the worker for the round trip. What Redis does not hold
 * goes on {@link TopicNames#RESULTS} ({@link ResultReports}): a result whose record could not be
 * written, reports about copies, and with {@link ResultReports#ALL} every result. Its lease carries
 * how far each handler's queue has been received ({@link ReceiveProgress}), so the scheduler does
 * not re-send what is only waiting in a backlog.
 *
 * <p>Threads: one poll thread (the only one touching the consumer), a bounded pool of worker
 * threads running handlers, one timer thread for timeouts, one thread publishing results, the
 * lease's renewal thread, and the log flusher ({@link TriggerLogShipper}) shipping what handlers
 * log to their triggers' logs in Redis.
 */
public final class KairosExecutor implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(KairosExecutor.class);

  /** How many recently started trigger ids {@link #startedHere} keeps. */
  private static final int STARTED_HERE_CAPACITY = 100_000;

  /** Longest pause between two tries of a start claim whose answer was lost. */
  private static final long CLAIM_RETRY_MAX_MS = 1_000;

  /** How often a claim waiting for the lease's trust looks again (a renewal retries as fast). */
  private static final long TRUST_POLL_MS = 20;

  /** How often start asks the NameServer again for a route it did not serve. */
  private static final long ROUTE_POLL_MS = 500;

  /** How long close() waits for run ends still being written to Redis or published. */
  private static final long ENDINGS_GRACE_MS = 10_000;

  /**
   * How often the consumer sends its offsets to the broker. Every poll used to send them (one
   * request per queue per poll, more broker requests than fires at a few hundred fires a second); a
   * crash re-delivers at most this much, and the start claim reports those copies DUPLICATE.
   */
  static final Duration OFFSET_PERSIST_INTERVAL = Duration.ofSeconds(1);

  private final KairosRedis redis;
  private final ExecutorSettings settings;
  private final Map<String, JobHandler> handlers;
  private final Lifecycle lifecycle = new Lifecycle("KairosExecutor");
  private final MessageCodec codec = new MessageCodec();
  private final JobRunners runners = new JobRunners(this::launch, this::discardLater);
  private final AtomicInteger activeRuns = new AtomicInteger();
  private final ExecutorCounters counters;
  private final LongAdder reclaims = new LongAdder();
  private final LongAdder ownLostClaims = new LongAdder();

  // The current slot tenure: replaced together by the poll thread when a lost lease is re-claimed
  // (volatile: workers read them). A tenure's consumer is touched by the poll thread only.
  private volatile SlotLease lease;
  private volatile DefaultLitePullConsumer consumer;
  private volatile OffsetTracker offsets = new OffsetTracker();
  private volatile Set<MessageQueue> assigned = Set.of();
  private volatile ReceiveProgress progress = new ReceiveProgress(Map.of(), (h, ms) -> {});
  private volatile AtomicBoolean consumerStopped = new AtomicBoolean();

  /** Runs that started on this instance and have not ended, by trigger id (for cancels). */
  private final Map<String, Run> running = new ConcurrentHashMap<>();

  /**
   * Trigger ids this instance started, most recent last (bounded): tells a claim of ours whose
   * reply was lost apart from a copy of a trigger this instance already ran.
   */
  private final Set<String> startedHere =
      java.util.Collections.newSetFromMap(
          new java.util.LinkedHashMap<>(1024, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
              return size() > STARTED_HERE_CAPACITY;
            }
          });

  /** Ends being written to Redis (and published where needed): close() waits for them. */
  private final Set<CompletableFuture<?>> ending = ConcurrentHashMap.newKeySet();

  private TriggerRecords records;
  private DefaultMQProducer producer;
  private ExecutorService workers;
  private ScheduledExecutorService timers;
  private ExecutorService publisher;
  private Thread poller;
  private CancelWatcher cancels;
  private TriggerLogShipper logs; // null when log shipping is off

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
      if (settings.log().enabled()) {
        logs =
            new TriggerLogShipper(
                redis, records.keys(), settings.log(), records.eventsMaxLen(), app);
        logs.start();
      }
      lease = new SlotLease(redis, settings.lease());
      lease.start();
      producer = new DefaultMQProducer("kairos_results_" + settings.consumerGroup());
      producer.setNamesrvAddr(settings.nameServerAddress());
      producer.setInstanceName(settings.lease().instanceId());
      ProducerDefaults.apply(producer).start();
      attach(lease, settings.routeTimeout());
      workers =
          Executors.newFixedThreadPool(settings.workerThreads(), named("kairos-worker-" + app));
      timers = Executors.newSingleThreadScheduledExecutor(named("kairos-timeouts-" + app));
      publisher = Executors.newSingleThreadExecutor(named("kairos-results-" + app));
      poller = named("kairos-poll-" + app).newThread(this::pollLoop);
      poller.start();
      cancels =
          new CancelWatcher(
              redis, app, this::cancelRun, System::currentTimeMillis, counters.errors::increment);
      cancels.start();
      log.info("executor {} of app {} consumes {}", lease.instanceId(), app, assigned);
    } catch (RuntimeException e) {
      close();
      throw e;
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      close();
      throw new KairosException("cannot start executor of app " + app + ": " + e.getMessage(), e);
    }
  }

  /**
   * Starts a consumer on the queues of {@code held}'s slot and makes it the current tenure. Called
   * at start and, on the poll thread, after a lost lease was re-claimed.
   *
   * @param routeWait how long to wait for a handler topic's route the NameServer does not serve
   */
  private void attach(SlotLease held, Duration routeWait)
      throws MQClientException, InterruptedException {
    DefaultLitePullConsumer next = new DefaultLitePullConsumer(settings.consumerGroup());
    next.setNamesrvAddr(settings.nameServerAddress());
    next.setInstanceName(settings.lease().instanceId());
    next.setAutoCommit(false);
    // A new app consumes what was sent before its first instance came up.
    next.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
    next.setPullBatchSize(32);
    // One queue per handler is assigned; the client's default of 20 pull threads would leave most
    // idle, each one more thread for every safepoint and GC to stop.
    next.setPullThreadNums(Math.max(2, settings.lease().handlers().size()));
    next.setPersistConsumerOffsetInterval((int) OFFSET_PERSIST_INTERVAL.toMillis());
    next.start();
    try {
      Map<MessageQueue, String> mine = new HashMap<>();
      for (String handler : settings.lease().handlers()) {
        String topic = TopicNames.handlerTopic(settings.lease().app(), handler);
        mine.put(SlotQueueSelector.queueOf(queuesOf(next, topic, routeWait), held.slot()), handler);
      }
      next.assign(new ArrayList<>(mine.keySet()));
      // Safety: the tracker and the queue set change before the lease, so a worker that sees the
      // new lease also sees the new queues and never starts a delivery of the old slot's queue.
      offsets = new OffsetTracker();
      assigned = Set.copyOf(mine.keySet());
      progress = new ReceiveProgress(mine, held::receivedThrough);
      consumerStopped = new AtomicBoolean();
      consumer = next;
      lease = held;
    } catch (MQClientException | InterruptedException | RuntimeException e) {
      next.shutdown();
      throw e;
    }
  }

  /**
   * The topic's queues as the NameServer routes them, asked again until {@code wait} has passed: a
   * restarted NameServer serves no route until the broker re-registers, at its own period.
   */
  private static Collection<MessageQueue> queuesOf(
      DefaultLitePullConsumer consumer, String topic, Duration wait)
      throws MQClientException, InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    boolean logged = false;
    while (true) {
      try {
        return consumer.fetchMessageQueues(topic);
      } catch (MQClientException e) {
        if (System.nanoTime() - deadline >= 0) {
          throw e;
        }
        if (!logged) {
          log.warn(
              "the NameServer serves no route of topic {} ({}); waiting up to {} for the broker to"
                  + " register",
              topic,
              e.getErrorMessage(),
              wait);
          logged = true;
        }
      }
      Thread.sleep(ROUTE_POLL_MS);
    }
  }

  /**
   * After a lost lease: claims the lowest free slot again and resumes consuming its queues, trying
   * every renewal interval until it succeeds or the executor closes. Poll thread only.
   *
   * @return false when the executor closed first
   */
  private boolean reclaim() throws InterruptedException {
    SlotLease lost = lease;
    long pauseMs = settings.lease().renewInterval().toMillis();
    while (lifecycle.isStarted()) {
      SlotLease next = new SlotLease(redis, settings.lease());
      try {
        next.start();
        attach(next, Duration.ZERO);
        lost.close();
        reclaims.increment();
        log.info(
            "executor {} of app {} re-claimed slot {} (lost slot {}) and consumes {}",
            next.instanceId(),
            settings.lease().app(),
            next.slot(),
            lost.slot(),
            assigned);
        return true;
      } catch (NoFreeSlotException e) {
        log.warn(
            "executor {}: {}; trying again in {} ms", next.instanceId(), e.getMessage(), pauseMs);
      } catch (MQClientException | RuntimeException e) {
        next.close();
        counters.errors.increment();
        log.warn(
            "executor {} could not re-claim a slot ({}); trying again in {} ms",
            next.instanceId(),
            e.toString(),
            pauseMs);
      }
      Thread.sleep(pauseMs);
    }
    return false;
  }

  public int slot() {
    return lease.slot();
  }

  /** Start claims whose answer was lost and that turned out to have committed (then run). */
  long ownLostClaims() {
    return ownLostClaims.sum();
  }

  /** How many times this instance claimed a slot again after losing its lease. */
  public long reclaims() {
    return reclaims.sum();
  }

  /** What a health check reports about this instance right now. */
  public ExecutorHealth health() {
    SlotLease current = lease;
    return new ExecutorHealth(
        settings.lease().app(),
        settings.lease().instanceId(),
        lifecycle.isStarted(),
        isConsuming(),
        current == null ? -1 : current.slot(),
        current != null && current.isValid(),
        current == null ? Duration.ZERO : current.remaining(),
        current == null ? Duration.ZERO : current.sinceRenewal(),
        reclaims.sum(),
        activeRuns.get());
  }

  /** Whether this instance is consuming: started, its lease trusted, its consumer running. */
  public boolean isConsuming() {
    return lifecycle.isStarted() && lease != null && lease.isValid() && !consumerStopped.get();
  }

  /**
   * Deliveries received from the slot's queues that have neither started nor been reported: what
   * stops polling at {@link ExecutorSettings#maxInFlight()}. Package-private, for tests.
   */
  int unstartedDeliveries() {
    return offsets.pendingCount();
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

  /** The log shipper, or null when {@link ExecutorSettings#log()} is off or before start. */
  public TriggerLogShipper logShipper() {
    return logs;
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
              "executor {} lost slot {}: it stops consuming that slot's queues, leaves them to the"
                  + " slot's next owner and claims a free slot again",
              lease.instanceId(),
              lease.slot());
          counters.leaseLost.increment();
          stopConsumer();
          if (!reclaim()) {
            return;
          }
          continue;
        }
        if (!lease.isValid() || offsets.pendingCount() >= settings.maxInFlight()) {
          commit(false);
          Thread.sleep(20);
          continue;
        }
        long pollStartedMs = System.currentTimeMillis();
        List<MessageExt> messages = consumer.poll(settings.pollTimeout().toMillis());
        for (MessageExt message : messages) {
          accept(message);
        }
        progress.polled(pollStartedMs, messages);
        commit(false);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        counters.errors.increment();
        log.warn("executor poll loop failed, will keep running", e);
      }
    }
  }

  /**
   * Moves the consumer's offsets to what is done; {@code persist} also sends them to the broker at
   * once, otherwise the client does every {@link #OFFSET_PERSIST_INTERVAL}.
   */
  private void commit(boolean persist) {
    Map<MessageQueue, Long> commit = offsets.committable();
    if (!commit.isEmpty()) {
      consumer.commitSync(commit, persist);
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
    runners.submit(new Delivery(queue, offset, trigger, handler));
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
    counters.count(t.handler(), Outcome.DISCARDED);
    end(t, ResultStatus.DISCARDED, outcome.startedMs(), why);
  }

  /**
   * Claims the start of a delivery; reports and returns the outcome, or null when the claim could
   * not be made (the lease is no longer trusted, or Redis failed): then the offset stays
   * uncommitted so the slot's next owner, or the scheduler's re-dispatch, brings it back.
   */
  private StartOutcome claim(Delivery delivery) {
    if (!awaitTrust(delivery.queue())) {
      return null; // received under a lease since lost, or stopping: the slot's owner has it
    }
    log.debug("claiming the start of {}", delivery.trigger().triggerId());
    StartOutcome outcome =
        claimResolvingLostReplies(
            StartRequest.of(delivery.trigger(), lease.instanceId(), lease.slot()),
            delivery.queue());
    if (outcome == null) {
      return null;
    }
    offsets.done(delivery.queue(), delivery.offset());
    switch (outcome.kind()) {
      case STARTED -> {
        synchronized (startedHere) {
          startedHere.add(delivery.trigger().triggerId());
        }
        counters.count(delivery.trigger().handler(), Outcome.STARTED);
      }
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

  /**
   * Claims a start; when Redis does not answer (a timeout or a dropped connection, after which the
   * script may or may not have committed) it tries again until Redis answers, so a claim is never
   * left RUNNING with its handler unrun (issue #14). A try that finds the trigger RUNNING by this
   * instance, which has not started it, is this claim's own earlier try: the handler runs. While
   * the lease is not trusted it only reads the record (a claim that had not committed is left to
   * the slot's next owner).
   *
   * @return the outcome, or null when the start was not claimed and is left to the next owner
   */
  private StartOutcome claimResolvingLostReplies(StartRequest request, MessageQueue queue) {
    long pauseMs = 50;
    boolean lostReply = false;
    while (true) {
      try {
        if (awaitTrust(queue)) {
          StartOutcome outcome = records.claimStart(request);
          return lostReply ? ownLostClaim(request, outcome) : outcome;
        }
        if (!lostReply) {
          return null;
        }
        String[] found = records.stateAndExecutor(request.triggerId(), request.jobId());
        StartOutcome read =
            new StartOutcome(
                StartOutcome.Kind.DUPLICATE, System.currentTimeMillis(), found[0], found[1]);
        StartOutcome own = ownLostClaim(request, read);
        return own.started() ? own : null;
      } catch (RuntimeException e) {
        counters.errors.increment();
        if (!lostReply) {
          log.warn(
              "start claim of {} got no answer ({}); trying again until Redis answers",
              request.triggerId(),
              e.toString());
        }
        lostReply = true;
      }
      if (!lifecycle.isStarted()) {
        return null; // stopping: the lost-trigger monitor settles a claim that had committed
      }
      try {
        Thread.sleep(pauseMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
      pauseMs = Math.min(pauseMs * 2, CLAIM_RETRY_MAX_MS);
    }
  }

  /**
   * Waits while the lease is only untrusted — a renewal is late because Redis is slow or restarting
   * — until it is trusted again (true), or lost, the queue no longer ours, or the executor stopping
   * (false). Giving up on a merely untrusted lease would leave the delivery unclaimed while its
   * offset is already past the poll: nothing would bring it back before the lost-trigger monitor's
   * start timeout (a minute), and its pending offset would hold back every later commit (issue #14:
   * one overloaded second lost 128 starts this way).
   */
  private boolean awaitTrust(MessageQueue queue) {
    while (true) {
      SlotLease held = lease;
      if (held.isLost() || !assigned.contains(queue) || !lifecycle.isStarted()) {
        return false;
      }
      if (held.isValid()) {
        return true;
      }
      try {
        Thread.sleep(TRUST_POLL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }

  /** After a lost reply: RUNNING by this instance, not started here, is this claim's own. */
  private StartOutcome ownLostClaim(StartRequest request, StartOutcome outcome) {
    boolean startedBefore;
    synchronized (startedHere) {
      startedBefore = startedHere.contains(request.triggerId());
    }
    if (outcome.kind() == StartOutcome.Kind.DUPLICATE
        && "RUNNING".equals(outcome.stateFound())
        && request.executorId().equals(outcome.executorFound())
        && !startedBefore) {
      ownLostClaims.increment();
      log.info(
          "start claim of {} had committed before its answer was lost: running it",
          request.triggerId());
      return new StartOutcome(
          StartOutcome.Kind.STARTED, outcome.startedMs(), "RUNNING", request.executorId());
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
      JobContext context = logs == null ? JobContext.of(t) : JobContext.shipped(t, logs);
      try {
        context.log().bind();
        run.delivery.handler().execute(context);
        status = ResultStatus.SUCCESS;
      } catch (Exception | LinkageError | AssertionError e) {
        status = ResultStatus.FAIL;
        message = e.toString();
        if (e instanceof InterruptedException && !lifecycle.isStarted()) {
          message = "interrupted: the executor is shutting down; " + message;
        }
      } finally {
        JobLog.unbind();
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
      if (logs != null) {
        // Safety: issued before the completion, on the same connection and hash slot, so a reader
        // that sees the trigger final also sees its last lines.
        track(logs.finish(context.log().shipped()));
      }
      String logText = context.log().text();
      if (!logText.isEmpty()) {
        message = message.isEmpty() ? logText : message + "\n" + logText;
      }
      end(t, status, outcome.startedMs(), message);
    } catch (RuntimeException e) {
      counters.errors.increment();
      log.warn("running trigger {} failed outside the handler", t.triggerId(), e);
    } finally {
      run.end();
      runners.finished(run);
    }
  }

  /**
   * Records how a started run ended without holding the worker for the round trip; publishes the
   * result when the record could not be written (the scheduler's result consumer then writes it),
   * or always with {@link ResultReports#ALL}. An end with nothing to publish completes where Redis
   * answered: handing every end to the publisher thread cost a thread wake-up per fire.
   */
  private void end(TriggerMessage t, ResultStatus status, long startedMs, String message) {
    String bounded = ResultMessage.truncate(message);
    CompletableFuture<?> write;
    try {
      write =
          records
              .completeAsync(
                  t.triggerId(),
                  t.jobId(),
                  t.scheduledFireMs(),
                  lease.instanceId(),
                  TriggerState.valueOf(status.name()),
                  bounded)
              .toCompletableFuture();
    } catch (RuntimeException e) {
      write = CompletableFuture.failedFuture(e);
    }
    CompletableFuture<Void> ended = new CompletableFuture<>();
    track(ended);
    write.whenComplete(
        (outcome, failure) -> {
          if (failure == null && settings.resultReports() != ResultReports.ALL) {
            ended.complete(null);
            return;
          }
          try {
            publisher.execute(() -> publishEnd(t, status, startedMs, bounded, failure, ended));
          } catch (RejectedExecutionException e) {
            ended.complete(null); // close() gave up waiting; the lost-trigger monitor settles it
          }
        });
  }

  /** Publisher thread: reports an end whose record failed, or every end with {@code ALL}. */
  private void publishEnd(
      TriggerMessage t,
      ResultStatus status,
      long startedMs,
      String bounded,
      Throwable failure,
      CompletableFuture<Void> ended) {
    try {
      if (failure != null) {
        counters.errors.increment();
        log.warn(
            "recording the end of {} failed ({}); publishing its {} result for the scheduler to"
                + " record",
            t.triggerId(),
            failure.toString(),
            status);
      }
      report(t, status, startedMs, bounded);
    } finally {
      ended.complete(null);
    }
  }

  /** Keeps {@code close()} waiting for {@code work} (bounded): a run's end, a result's send. */
  private void track(CompletableFuture<?> work) {
    ending.add(work);
    work.whenComplete((ok, failure) -> ending.remove(work));
  }

  /** Publishes a result without waiting for the broker; close() waits for the send. */
  private void report(TriggerMessage t, ResultStatus status, long startedMs, String text) {
    CompletableFuture<Void> sent = new CompletableFuture<>();
    track(sent);
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
      producer.send(
          codec.toMessage(result),
          new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
              sent.complete(null);
            }

            @Override
            public void onException(Throwable e) {
              counters.errors.increment();
              log.warn(
                  "publishing the {} result of {} failed: {}", status, t.triggerId(), e.toString());
              sent.complete(null);
            }
          });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      counters.errors.increment();
      sent.complete(null);
    } catch (Exception e) {
      counters.errors.increment();
      log.warn("publishing the {} result of {} failed: {}", status, t.triggerId(), e.toString());
      sent.complete(null);
    }
  }

  /**
   * Commits what is done and shuts the consumer down, once. Shutting down (rather than just not
   * polling) matters after a lost lease: the client would otherwise keep persisting this instance's
   * stale offsets for a queue that now belongs to another instance.
   */
  private void stopConsumer() {
    DefaultLitePullConsumer current = consumer;
    if (current == null || !consumerStopped.compareAndSet(false, true)) {
      return;
    }
    try {
      commit(true);
    } catch (RuntimeException e) {
      log.warn("final offset commit failed; the next owner may see some copies again", e);
    }
    current.shutdown();
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
   * Waits, bounded, for the ends still being written and the results still being sent (an end may
   * start a send while this waits), so a stopping executor records and reports them.
   */
  private void awaitEndings() {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ENDINGS_GRACE_MS);
    while (!ending.isEmpty()) {
      long left = deadline - System.nanoTime();
      try {
        if (left <= 0) {
          throw new java.util.concurrent.TimeoutException();
        }
        CompletableFuture.allOf(ending.toArray(CompletableFuture[]::new))
            .get(left, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (java.util.concurrent.ExecutionException e) {
        // logged where it failed; wait for the rest
      } catch (java.util.concurrent.TimeoutException e) {
        log.warn(
            "{} run ends or result sends not done within {} ms of stopping; the lost-trigger"
                + " monitor settles them",
            ending.size(),
            ENDINGS_GRACE_MS);
        return;
      }
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
    if (logs != null) {
      logs.close(); // ships what handler threads logged after their run's end
    }
    awaitEndings();
    if (publisher != null) {
      publisher.shutdown();
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
