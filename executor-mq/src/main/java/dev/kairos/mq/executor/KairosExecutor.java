package dev.kairos.mq.executor;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.lifecycle.Lifecycle;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.core.time.KairosClock;
import dev.kairos.core.time.RedisTimeSource;
import dev.kairos.mq.log.TriggerLogShipper;
import dev.kairos.mq.slot.SlotLease;
import dev.kairos.protocol.message.ProducerDefaults;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.start.TriggerRecords;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An executor instance: leases a slot of its app and consumes that slot's queue of every hosted
 * handler topic ({@link SlotTenure}, polled by {@link DeliveryPoller}), holds each trigger until
 * its fire time ({@link DeliveryHold}: a node sends it a pre-dispatch lead ahead, on the same
 * cluster clock), claims its start in Redis as the handler starts ({@link StartClaimer}), runs it
 * under the job's block strategy and timeout ({@link HandlerRuns}), and records the end in Redis
 * without holding the worker for the round trip ({@link RunEnds}). What Redis does not hold goes on
 * {@link TopicNames#RESULTS}. Its lease carries how far each handler's queue has been received
 * ({@link ReceiveProgress}), so the scheduler does not re-send what is only waiting in a backlog.
 *
 * <p>Threads: one poll thread (the only one touching the consumer), the hold's ticker, a bounded
 * pool of worker threads running handlers, one timer thread for timeouts, one thread publishing
 * results, the cluster clock's sampler, the lease's renewal thread, and the log flusher ({@link
 * TriggerLogShipper}) shipping what handlers log to their triggers' logs in Redis.
 */
public final class KairosExecutor implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(KairosExecutor.class);

  /**
   * How often the consumer sends its offsets to the broker. Every poll used to send them (one
   * request per queue per poll, more broker requests than fires at a few hundred fires a second); a
   * crash re-delivers at most this much, and the start claim reports those copies DUPLICATE.
   */
  static final Duration OFFSET_PERSIST_INTERVAL = Duration.ofSeconds(1);

  /**
   * Most deliveries held for their fire time before polling pauses: a node sends at most its
   * pre-dispatch lead (2 s by default) ahead, so this bounds a slot at 50,000 fires a second.
   */
  static final int MAX_HELD = 100_000;

  private final KairosRedis redis;
  private final ExecutorSettings settings;
  private final Map<String, JobHandler> handlers;
  private final KairosClock givenClock;
  private final Lifecycle lifecycle = new Lifecycle("KairosExecutor");
  private final ExecutorCounters counters;
  private final LongAdder reclaims = new LongAdder();
  private final AtomicReference<SlotTenure> tenure = new AtomicReference<>();

  private ClusterClock clusterClock; // null when a clock was given
  private DefaultMQProducer producer;
  private ExecutorService workers;
  private ScheduledExecutorService timers;
  private ExecutorService publisher;
  private RunEnds ends;
  private StartClaimer claimer;
  private HandlerRuns runs;
  private DeliveryHold hold;
  private Thread poller;
  private CancelWatcher cancels;
  private TriggerLogShipper logs; // null when log shipping is off

  /**
   * An executor that fires on the cluster's reference clock (Redis {@code TIME} of the {@code
   * kairos:{clock}} slot, as the scheduler nodes do).
   *
   * @param handlers handler name → code; must be exactly the handlers named in the lease config
   */
  public KairosExecutor(
      KairosRedis redis, ExecutorSettings settings, Map<String, JobHandler> handlers) {
    this(redis, settings, handlers, null);
  }

  /**
   * @param clock the clock triggers are held until their fire time on; null for the cluster's
   *     reference clock
   */
  public KairosExecutor(
      KairosRedis redis,
      ExecutorSettings settings,
      Map<String, JobHandler> handlers,
      KairosClock clock) {
    this.redis = redis;
    this.settings = settings;
    this.handlers = Map.copyOf(handlers);
    this.givenClock = clock;
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
      TriggerRecords records = TriggerRecords.connect(redis, settings.dedupWindow());
      KairosClock clock = givenClock;
      if (clock == null) {
        clusterClock = new ClusterClock(new RedisTimeSource(redis));
        clusterClock.start();
        clock = clusterClock;
      }
      if (settings.log().enabled()) {
        logs =
            new TriggerLogShipper(
                redis, records.keys(), settings.log(), records.eventsMaxLen(), app);
        logs.start();
      }
      SlotLease lease = new SlotLease(redis, settings.lease());
      lease.start();
      producer =
          new DefaultMQProducer(
              "kairos_results_" + settings.consumerGroup(),
              settings.rocketMqCredentials().rpcHook());
      producer.setNamesrvAddr(settings.nameServerAddress());
      producer.setInstanceName(settings.lease().instanceId());
      ProducerDefaults.apply(producer).start();
      try {
        tenure.set(SlotTenure.open(lease, settings, settings.routeTimeout()));
      } catch (Exception e) {
        lease.close();
        throw e;
      }
      workers =
          Executors.newFixedThreadPool(settings.workerThreads(), named("kairos-worker-" + app));
      timers = Executors.newSingleThreadScheduledExecutor(named("kairos-timeouts-" + app));
      publisher = Executors.newSingleThreadExecutor(named("kairos-results-" + app));
      ends =
          new RunEnds(
              records,
              producer,
              publisher,
              timers,
              settings.resultReports(),
              settings.lease().instanceId(),
              counters);
      claimer = new StartClaimer(records, tenure::get, lifecycle, counters, ends);
      runs =
          new HandlerRuns(
              workers,
              timers,
              settings.workerThreads(),
              claimer,
              ends,
              counters,
              lifecycle,
              logs,
              settings.secretParams());
      hold = new DeliveryHold("kairos-hold-" + app, clock, MAX_HELD, runs::submit);
      hold.start();
      poller =
          named("kairos-poll-" + app)
              .newThread(
                  new DeliveryPoller(
                      redis, settings, handlers, tenure, hold, MAX_HELD, ends, counters, lifecycle,
                      reclaims));
      poller.start();
      cancels =
          new CancelWatcher(
              redis, app, runs::cancel, System::currentTimeMillis, counters.errors::increment);
      cancels.start();
      log.info(
          "executor {} of app {} consumes {}", lease.instanceId(), app, tenure.get().assigned());
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

  public int slot() {
    return tenure.get().lease.slot();
  }

  /** Start claims whose answer was lost and that turned out to have committed (then run). */
  long ownLostClaims() {
    return claimer == null ? 0 : claimer.ownLostClaims();
  }

  /** How many times this instance claimed a slot again after losing its lease. */
  public long reclaims() {
    return reclaims.sum();
  }

  /** What a health check reports about this instance right now. */
  public ExecutorHealth health() {
    SlotTenure current = tenure.get();
    SlotLease lease = current == null ? null : current.lease;
    return new ExecutorHealth(
        settings.lease().app(),
        settings.lease().instanceId(),
        lifecycle.isStarted(),
        isConsuming(),
        lease == null ? -1 : lease.slot(),
        lease != null && lease.isValid(),
        lease == null ? Duration.ZERO : lease.remaining(),
        lease == null ? Duration.ZERO : lease.sinceRenewal(),
        reclaims.sum(),
        runs == null ? 0 : runs.active());
  }

  /** Whether this instance is consuming: started, its lease trusted, its consumer running. */
  public boolean isConsuming() {
    SlotTenure current = tenure.get();
    return lifecycle.isStarted() && current != null && current.isTrusted();
  }

  /**
   * Deliveries received from the slot's queues that have neither started nor been reported, held
   * ones included. Package-private, for tests.
   */
  int unstartedDeliveries() {
    SlotTenure current = tenure.get();
    return current == null ? 0 : current.offsets.pendingCount();
  }

  /** Deliveries received ahead of their fire time (the node's pre-dispatch) and waiting for it. */
  public int heldDeliveries() {
    return hold == null ? 0 : hold.size();
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

  private static ThreadFactory named(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread thread = new Thread(r, prefix + "-" + n.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  /**
   * Stops polling and releasing held deliveries (what was received but not started stays
   * uncommitted for the slot's next owner), lets running handlers finish within {@link
   * ExecutorSettings#shutdownGrace()}, records and reports them, commits offsets, then releases the
   * slot.
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
    if (hold != null) {
      hold.close();
    }
    if (runs != null) {
      runs.stop(settings.shutdownGrace());
    } else if (workers != null) {
      workers.shutdownNow();
    }
    if (logs != null) {
      logs.close(); // ships what handler threads logged after their run's end
    }
    if (ends != null) {
      ends.awaitEndings();
    }
    if (publisher != null) {
      publisher.shutdown();
    }
    if (timers != null) {
      timers.shutdownNow();
    }
    SlotTenure current = tenure.get();
    if (current != null) {
      current.stop();
    }
    if (producer != null) {
      producer.shutdown();
    }
    if (current != null) {
      current.lease.close();
    }
    if (clusterClock != null) {
      clusterClock.close();
    }
  }
}
