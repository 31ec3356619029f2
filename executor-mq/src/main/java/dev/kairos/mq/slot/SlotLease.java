package dev.kairos.mq.slot;

import dev.kairos.core.lifecycle.Lifecycle;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.protocol.slot.SlotScripts;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One executor instance's lease on a slot of its app: the lowest free slot in {@code 0..Q-1},
 * claimed at {@link #start()}, renewed by a named background thread, released at {@link #close()}.
 *
 * <p>{@link #isValid()} answers from a local monotonic deadline (see {@link LeaseDeadline}) so a
 * paused or partitioned instance stops starting work before Redis lets another instance take the
 * slot. A lease lost to another instance stays lost: the owner closes it and claims a new one.
 */
public final class SlotLease implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SlotLease.class);

  /** Longest wait at close for a renewal already sent to Redis. */
  private static final Duration RENEWAL_END_WAIT = Duration.ofSeconds(2);

  private final SlotLeaseConfig config;
  private final SlotScripts scripts;
  private final LeaseDeadline deadline;
  private final Lifecycle lifecycle = new Lifecycle("SlotLease");
  private final AtomicLong renewals = new AtomicLong();
  private final AtomicLong renewalFailures = new AtomicLong();
  private final Map<String, Long> progress = new ConcurrentHashMap<>();
  private volatile boolean busy;
  private volatile boolean lost;
  private volatile int slot = -1;
  private ScheduledExecutorService renewer;

  public SlotLease(KairosRedis redis, SlotLeaseConfig config) {
    this(redis, config, System::nanoTime);
  }

  SlotLease(KairosRedis redis, SlotLeaseConfig config, LongSupplier nanoTime) {
    this.config = config;
    this.scripts = new SlotScripts(redis);
    this.deadline = new LeaseDeadline(nanoTime, config.trustedWindow().toNanos());
    // As the claim script writes it: nothing received yet, which is known, unlike a missing entry.
    config.handlers().forEach(h -> progress.put(h, 0L));
  }

  /**
   * Claims the lowest free slot and starts renewing it.
   *
   * @throws NoFreeSlotException when all Q slots are leased; the lease is then closed
   */
  public void start() {
    lifecycle.start();
    long started = deadline.attemptStarted();
    SlotScripts.Answer answer;
    try {
      answer =
          scripts.claim(
              config.app(),
              config.instanceId(),
              config.slotCount(),
              config.ttl(),
              config.host(),
              config.handlers());
    } catch (RuntimeException e) {
      lifecycle.close();
      throw e;
    }
    if (!answer.ok()) {
      lifecycle.close();
      throw new NoFreeSlotException(config.app(), config.slotCount());
    }
    slot = answer.slot();
    deadline.confirmed(started);
    String name = "kairos-slot-lease-" + config.app() + "-" + slot;
    renewer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, name);
              t.setDaemon(true);
              return t;
            });
    scheduleRenewal(config.renewInterval().toMillis());
    log.info(
        "executor {} of app {} leased slot {} of {}",
        config.instanceId(),
        config.app(),
        slot,
        config.slotCount());
  }

  private void scheduleRenewal(long delayMs) {
    try {
      renewer.schedule(this::renewAndReschedule, delayMs, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // closing or lost: no more renewals
    }
  }

  /**
   * Renews, then schedules the next renewal: after the renew interval, or after {@link
   * #failedRenewalRetryMs()} when this one failed, so a lease outlives a short Redis outage (a
   * restart) instead of waiting a whole interval after Redis is back while its trust runs out.
   */
  private void renewAndReschedule() {
    boolean renewed = renewOnce();
    if (!lost && lifecycle.isStarted()) {
      scheduleRenewal(renewed ? config.renewInterval().toMillis() : failedRenewalRetryMs());
    }
  }

  /** The pause before retrying a failed renewal: a sixth of the renew interval, 100 ms at least. */
  long failedRenewalRetryMs() {
    return Math.max(100, config.renewInterval().toMillis() / 6);
  }

  /**
   * Runs on the renewal thread only. Catches everything: the loop must outlive a Redis outage.
   *
   * @return whether Redis confirmed the lease
   */
  private boolean renewOnce() {
    if (lost || !lifecycle.isStarted()) {
      return false;
    }
    long started = deadline.attemptStarted();
    try {
      SlotScripts.Answer answer =
          scripts.renew(
              config.app(), slot, config.instanceId(), config.ttl(), busy, Map.copyOf(progress));
      if (answer.ok()) {
        deadline.confirmed(started);
        renewals.incrementAndGet();
        return true;
      }
      if (!lifecycle.isStarted()) {
        // close() released the slot while this renewal was on its way: not a loss.
        return false;
      }
      lost = true;
      deadline.revoke();
      log.warn(
          "executor {} of app {} lost slot {}: the lease expired or another instance holds it;"
              + " it stops consuming the slot's queue",
          config.instanceId(),
          config.app(),
          slot);
      renewer.shutdown();
      return false;
    } catch (RuntimeException e) {
      if (!lifecycle.isStarted()) {
        return false; // close() interrupted this renewal; nothing to report
      }
      renewalFailures.incrementAndGet();
      log.warn(
          "renewing slot {} of app {} failed ({} ms of trust left), will keep trying: {}",
          slot,
          config.app(),
          TimeUnit.NANOSECONDS.toMillis(deadline.remainingNanos()),
          e.toString());
      return false;
    }
  }

  /** Whether this instance may start work from its slot's queues right now. */
  public boolean isValid() {
    return lifecycle.isStarted() && deadline.isValid();
  }

  /** Whether Redis answered that the slot is no longer this instance's. */
  public boolean isLost() {
    return lost;
  }

  /** The leased slot, -1 before {@link #start()}. */
  public int slot() {
    return slot;
  }

  public String instanceId() {
    return config.instanceId();
  }

  public SlotLeaseConfig config() {
    return config;
  }

  /** Published with the next renewal, for BUSYOVER routing. */
  public void setBusy(boolean busy) {
    this.busy = busy;
  }

  /**
   * Records that every message sent to this slot's queue of {@code handler}'s topic before {@code
   * epochMs} has been received; published with the next renewal (it never moves back). The lost-
   * trigger monitor re-sends a trigger that has not started only once this has passed its dispatch
   * time, so a trigger that is merely waiting in the queue is not sent again. Thread-safe.
   *
   * @throws IllegalArgumentException for a handler this lease does not host
   */
  public void receivedThrough(String handler, long epochMs) {
    if (progress.computeIfPresent(handler, (h, ms) -> Math.max(ms, epochMs)) == null) {
      throw new IllegalArgumentException("handler " + handler + " is not hosted by this lease");
    }
  }

  /** The received-through time per hosted handler, as the next renewal publishes it. */
  public Map<String, Long> progress() {
    return Map.copyOf(progress);
  }

  /** Trust left before the local deadline. */
  public Duration remaining() {
    return Duration.ofNanos(deadline.remainingNanos());
  }

  /** Time since the last successful claim or renewal was sent (the lease's age on this side). */
  public Duration sinceRenewal() {
    return Duration.ofNanos(deadline.sinceConfirmedNanos());
  }

  public long renewals() {
    return renewals.get();
  }

  public long renewalFailures() {
    return renewalFailures.get();
  }

  public Lifecycle.State state() {
    return lifecycle.state();
  }

  /**
   * Lets a renewal already on its way to Redis finish before the release, so the two never cross (a
   * renewal answered after the release would read as a lost slot).
   */
  private void awaitRenewalEnd() {
    try {
      if (!renewer.awaitTermination(RENEWAL_END_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        log.info(
            "slot {} of app {}: a renewal is still running; releasing anyway", slot, config.app());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops renewing and gives the slot back, unless it was already lost to another instance. */
  @Override
  public void close() {
    boolean wasStarted = lifecycle.isStarted();
    if (!lifecycle.close()) {
      return;
    }
    deadline.revoke();
    if (renewer != null) {
      renewer.shutdownNow();
      awaitRenewalEnd();
    }
    if (!wasStarted || slot < 0 || lost) {
      return;
    }
    try {
      boolean released = scripts.release(config.app(), slot, config.instanceId());
      log.info(
          "executor {} of app {} {} slot {}",
          config.instanceId(),
          config.app(),
          released ? "released" : "no longer held",
          slot);
    } catch (RuntimeException e) {
      log.warn(
          "releasing slot {} of app {} failed; it expires by TTL: {}",
          slot,
          config.app(),
          e.toString());
    }
  }
}
