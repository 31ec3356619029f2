package dev.kairos.backfill;

import dev.kairos.core.lifecycle.PeriodicTask;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.model.TriggerState;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.KairosClock;
import dev.kairos.protocol.adhoc.AdhocRequest;
import dev.kairos.protocol.adhoc.AdhocSubmission;
import dev.kairos.protocol.adhoc.AdhocTriggers;
import dev.kairos.protocol.record.TriggerFields;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The leader's backfill driver: every tick it walks the RUNNING backfills (idle: one {@code
 * ZRANGE}) and, for each, reads which of its in-flight fires ended, submits further fires from its
 * cursor up to {@code maxConcurrent}, and saves the step in one script. Each fire is a normal
 * ad-hoc trigger ({@link AdhocTriggers}, id {@link TriggerId#backfill}), so once-only start,
 * retries, timeouts, alarms and history apply as to any trigger.
 *
 * <p>Safety: fires are submitted before the step that records them is saved. A leader killed in
 * between leaves the cursor behind; the next step re-submits those ids, which answer DUPLICATE and
 * are tracked as submitted, so no fire runs twice. A step saved over a revision that changed (a
 * cancel, or another leader's step) is dropped and the next tick starts again from what is stored.
 *
 * <p>Only the loop thread touches the driver's state; one driver runs per leader term.
 */
public final class BackfillDriver implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(BackfillDriver.class);

  /**
   * Final states the lifecycle retries while attempts are left (as lifecycle's {@code
   * LifecyclePolicy.RETRYABLE}).
   */
  static final Set<TriggerState> RETRYABLE =
      EnumSet.of(
          TriggerState.NO_EXECUTOR,
          TriggerState.FAIL,
          TriggerState.TIMEOUT,
          TriggerState.LOST,
          TriggerState.EXPIRED);

  /** How long a retry may take to appear after the attempt before it ended. */
  static final Duration RETRY_GRACE = Duration.ofSeconds(60);

  private final long term;
  private final BackfillStore store;
  private final AdhocTriggers adhoc;
  private final KairosRedis redis;
  private final RedisKeys keys;
  private final Function<String, Optional<JobDefinition>> jobs;
  private final KairosClock clock;
  private final Duration interval;
  private final BackfillMetrics metrics;
  private final InflightFires fires;
  private final PeriodicTask task;

  public BackfillDriver(
      long term,
      BackfillStore store,
      AdhocTriggers adhoc,
      KairosRedis redis,
      RedisKeys keys,
      Function<String, Optional<JobDefinition>> jobs,
      KairosClock clock,
      Duration interval,
      BackfillMetrics metrics) {
    this.term = term;
    this.store = Objects.requireNonNull(store, "store");
    this.adhoc = Objects.requireNonNull(adhoc, "adhoc");
    this.redis = Objects.requireNonNull(redis, "redis");
    this.keys = Objects.requireNonNull(keys, "keys");
    this.jobs = Objects.requireNonNull(jobs, "jobs");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.interval = Objects.requireNonNull(interval, "interval");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.fires = new InflightFires(redis, keys);
    this.task =
        new PeriodicTask(
            "backfill driver",
            "kairos-backfill-" + term,
            interval,
            this::tick,
            e -> {
              metrics.errors.increment();
              log.warn("term={} backfill step failed, will keep running: {}", term, e.toString());
            });
  }

  public long term() {
    return term;
  }

  public boolean isRunning() {
    return task.isRunning();
  }

  public void start() {
    task.start();
    log.info("term={} backfill driver started, every {}", term, interval);
  }

  /** One pass over the RUNNING backfills; package-private so tests can step it. */
  void tick() {
    for (String id : store.activeIds()) {
      if (Thread.currentThread().isInterrupted()) {
        return;
      }
      try (MDC.MDCCloseable b = MDC.putCloseable("backfillId", id)) {
        Optional<Backfill> backfill = store.get(id);
        if (backfill.isEmpty()) {
          store.forget(id); // its hash was deleted by hand: stop looking for it
        } else if (backfill.get().state() == BackfillState.RUNNING) {
          step(backfill.get());
        }
      } catch (RuntimeException e) {
        metrics.errors.increment();
        log.warn("backfill {} step failed, will retry next tick: {}", id, e.toString());
      }
    }
  }

  /** One step of one RUNNING backfill. */
  void step(Backfill backfill) {
    try (MDC.MDCCloseable j = MDC.putCloseable("jobId", backfill.jobId())) {
      advance(backfill);
    }
  }

  private void advance(Backfill backfill) {
    long now = clock.nowMs();
    Optional<JobDefinition> job = jobs.apply(backfill.jobId());
    int succeeded = backfill.succeeded();
    int failed = backfill.failed();
    List<TriggerId> inflight = new ArrayList<>();
    List<InflightFires.Fire> read = fires.read(backfill.inflight());
    for (int i = 0; i < backfill.inflight().size(); i++) {
      TriggerId id = backfill.inflight().get(i);
      InflightFires.Fire fire = read.get(i);
      Optional<TriggerId> current = follow(id, fire, job, now);
      if (current.isPresent()) {
        inflight.add(current.get());
      } else if (fire.state().filter(TriggerState.SUCCESS.name()::equals).isPresent()) {
        succeeded++;
        metrics.succeeded.increment();
      } else {
        failed++;
        metrics.failed.increment();
        log.info(
            "jobId={} triggerId={} backfill fire ended {}",
            backfill.jobId(),
            id,
            fire.state().orElse("without a record"));
      }
    }
    FireRange range = backfill.range();
    long cursor = backfill.cursorMs();
    int submitted = backfill.submitted();
    String message = "";
    boolean jobGone = job.isEmpty();
    while (!jobGone && inflight.size() < backfill.maxConcurrent()) {
      OptionalLong next = range.nextAfter(cursor);
      if (next.isEmpty()) {
        break;
      }
      TriggerId fire = TriggerId.backfill(backfill.jobId(), next.getAsLong());
      AdhocSubmission done = adhoc.submit(AdhocRequest.manual(fire, now, Optional.empty()));
      if (done.outcome() == AdhocSubmission.Outcome.JOB_NOT_FOUND) {
        jobGone = true;
        break;
      }
      if (done.outcome() == AdhocSubmission.Outcome.JOB_DISABLED) {
        message = "waiting: the job is disabled";
        break;
      }
      // ACCEPTED, or DUPLICATE: submitted by a step whose save was lost; tracked either way.
      inflight.add(fire);
      submitted++;
      cursor = next.getAsLong();
      metrics.submitted.increment();
      try (MDC.MDCCloseable t = MDC.putCloseable("triggerId", fire.value())) {
        log.debug("backfill {} submitted fire {} ({})", backfill.id(), fire, done.outcome());
      }
    }
    boolean exhausted = jobGone || range.nextAfter(cursor).isEmpty();
    BackfillState state = BackfillState.RUNNING;
    if (exhausted && inflight.isEmpty()) {
      state = failed > 0 || jobGone ? BackfillState.FAILED : BackfillState.SUCCEEDED;
      if (jobGone) {
        message = "the job was deleted after " + submitted + " of " + backfill.total() + " fires";
      }
    }
    Backfill stepped =
        backfill.step(cursor, inflight, submitted, succeeded, failed, state, message);
    if (stepped.progress().equals(backfill.progress()) && state == BackfillState.RUNNING) {
      return; // nothing changed: no write
    }
    BackfillStore.Outcome saved = store.save(stepped, state, now);
    if (saved == BackfillStore.Outcome.OK && state.isFinal()) {
      metrics.finished.increment();
      log.info(
          "jobId={} backfill {} ended {}: {} succeeded, {} failed of {}",
          backfill.jobId(),
          backfill.id(),
          state,
          succeeded,
          failed,
          backfill.total());
    } else if (saved != BackfillStore.Outcome.OK) {
      log.info("backfill {} step not saved: {}", backfill.id(), saved);
    }
  }

  /**
   * The attempt of a fire still to wait for, or empty when its chain ended ({@code fire} then tells
   * how).
   */
  private Optional<TriggerId> follow(
      TriggerId id, InflightFires.Fire fire, Optional<JobDefinition> job, long now) {
    if (fire.state().isEmpty()) {
      // Safety: the record and the ad-hoc entry were read in one script, and the leader's claim
      // moves a fire from one to the other in one script, so a claimed fire is never seen in
      // neither place.
      if (fire.where() != InflightFires.Where.GONE) {
        return Optional.of(id); // waiting to be claimed, or a record without a state yet
      }
      if (id.retryNumber() > 0 && retryMayStillCome(id, job, now)) {
        return Optional.of(id);
      }
      return Optional.empty(); // no record and not waiting: gone (expired, or lost)
    }
    TriggerState s = TriggerState.valueOf(fire.state().get());
    if (!s.isTerminal()) {
      return Optional.of(id);
    }
    if (s == TriggerState.SUCCESS || !RETRYABLE.contains(s) || job.isEmpty()) {
      return Optional.empty();
    }
    int attempt = Integer.parseInt(fire.attempt().orElse("1"));
    if (attempt <= job.get().retryCount() && job.get().enabled()) {
      return Optional.of(id.retry(attempt)); // the lifecycle submits this retry
    }
    return Optional.empty();
  }

  /** Whether the attempt before retry {@code id} ended recently enough for its retry to come. */
  private boolean retryMayStillCome(TriggerId id, Optional<JobDefinition> job, long now) {
    if (job.isEmpty() || !job.get().enabled()) {
      return false;
    }
    int n = id.retryNumber();
    TriggerId previous = n == 1 ? id.root() : id.root().retry(n - 1);
    String ended =
        redis
            .sync()
            .hget(
                RedisKeys.trigger(keys.shardOf(previous.jobId()), previous.value()),
                TriggerFields.ENDED_MS);
    return ended != null && now - Long.parseLong(ended) < RETRY_GRACE.toMillis();
  }

  /** Stops the loop; idempotent. */
  @Override
  public void close() {
    if (task.stop()) {
      log.info("term={} backfill driver stopped", term);
    }
  }
}
