package dev.kairos.coordinator.scan;

import dev.kairos.coordinator.assign.FireAssigner;
import dev.kairos.coordinator.assign.FireAssigner.NodePicker;
import dev.kairos.coordinator.assign.LiveNodes;
import dev.kairos.core.calendar.CalendarSplit;
import dev.kairos.core.calendar.ExclusionCalendar;
import dev.kairos.core.calendar.SkippedFire;
import dev.kairos.core.error.KairosException;
import dev.kairos.core.model.JobScheduling;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.redis.JobFields;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.redis.ReplicaWait;
import dev.kairos.core.redis.ShardReadiness;
import dev.kairos.core.schedule.FirePlan;
import dev.kairos.core.schedule.FireWindow;
import dev.kairos.core.schedule.FixedDelaySchedule;
import dev.kairos.core.schedule.NextDue;
import dev.kairos.core.schedule.Schedule;
import dev.kairos.core.schedule.Schedules;
import dev.kairos.core.time.KairosClock;
import dev.kairos.protocol.claim.AdhocClaim;
import dev.kairos.protocol.claim.ClaimBatch;
import dev.kairos.protocol.claim.ClaimOutcome;
import dev.kairos.protocol.claim.Fire;
import dev.kairos.protocol.claim.JobClaim;
import dev.kairos.protocol.fence.StaleTermException;
import dev.kairos.protocol.wheel.WheelEntry;
import dev.kairos.protocol.wheel.WheelNotifier;
import io.lettuce.core.KeyValue;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's scan: for a term T, reads every shard's due jobs and due ad-hoc triggers (manual,
 * retry, child; see {@code AdhocTriggers}) up to now + pre-read, plans the jobs' fires with {@link
 * FireWindow}, assigns each fire and ad-hoc trigger to a live node and claims a batch with one
 * {@code claim_fires.lua} call per shard per batch. The shards run concurrently on the async
 * connection (64 pipelined chains, not 64 sequential round trips); within a shard, batches follow
 * each other while a batch came back full.
 *
 * <p>A pass starts its shards {@link ScanConfig#spread()} apart in all, evenly: Redis runs one
 * script at a time, and 64 claim scripts sent together made every take, start claim and end of the
 * whole cluster wait behind all of them, once a second (the spread workload's p99). The first pass
 * of a term starts them all at once: after a takeover, claiming the due fires quickly matters more
 * than the others' latency, and the failover budget (pre-read) counts on it.
 *
 * <p><b>Calendars.</b> A due job that names calendars has the fires they exclude recorded SKIPPED
 * by the same claim call instead of claimed ({@link CalendarSplit}). The calendars are cached
 * ({@link CalendarCache}) and checked against their version counter once per pass, and only in a
 * pass that reads such a job: a job without calendars costs nothing more. A calendar a job names
 * that no longer exists excludes nothing (counted in {@code kairos.scan.calendars.unknown}, logged
 * once per name).
 *
 * <p>Planning runs on the Redis reply threads: it is pure arithmetic over already-read hashes, a
 * few microseconds per job, and keeps a pass free of thread hand-offs.
 */
public final class DueFireScanner {

  private static final Logger log = LoggerFactory.getLogger(DueFireScanner.class);

  /** Parsed schedules per job, reused while the schedule version is unchanged. */
  private static final int MAX_CACHED_SCHEDULES = 100_000;

  private static final String[] SCHEDULING_FIELDS = JobScheduling.FIELDS.toArray(String[]::new);

  private final KairosRedis redis;
  private final RedisKeys keys;
  private final ScanConfig config;
  private final KairosClock clock;
  private final LiveNodes liveNodes;
  private final FireAssigner assigner;
  private final WheelNotifier notifier;
  private final FireWindow fireWindow;
  private final ShardReadiness readiness;
  private final ScanGaps gaps;
  private final Map<String, CachedSchedule> schedules = new ConcurrentHashMap<>();
  private final CalendarCache calendars = new CalendarCache();
  private final Set<String> unknownCalendarsLogged = ConcurrentHashMap.newKeySet();

  /** The term whose last pass completed; its next passes are spread. Scan thread only. */
  private long completedTerm = -1;

  private final Counter claimedFires;
  private final Counter claimedAdhoc;
  private final Counter fenceRejections;
  private final Counter casSkips;
  private final Counter duplicates;
  private final Counter misfires;
  private final Counter jobErrors;
  private final Counter changedSinceRead;
  private final Counter noLiveNodes;
  private final Counter notReady;
  private final Counter skippedFires;
  private final Counter unknownCalendars;
  private final Counter calendarReads;

  public DueFireScanner(
      KairosRedis redis,
      RedisKeys keys,
      ScanConfig config,
      KairosClock clock,
      LiveNodes liveNodes,
      FireAssigner assigner,
      WheelNotifier notifier,
      FireWindow fireWindow,
      MeterRegistry meters) {
    this(
        redis,
        keys,
        config,
        clock,
        liveNodes,
        assigner,
        notifier,
        fireWindow,
        ShardReadiness.ALL,
        meters);
  }

  /**
   * @param readiness shards it denies are left out of every pass (their data is being restored)
   */
  public DueFireScanner(
      KairosRedis redis,
      RedisKeys keys,
      ScanConfig config,
      KairosClock clock,
      LiveNodes liveNodes,
      FireAssigner assigner,
      WheelNotifier notifier,
      FireWindow fireWindow,
      ShardReadiness readiness,
      MeterRegistry meters) {
    this.redis = redis;
    this.keys = keys;
    this.config = config;
    this.clock = clock;
    this.liveNodes = liveNodes;
    this.assigner = assigner;
    this.notifier = notifier;
    this.fireWindow = fireWindow;
    this.readiness = readiness;
    this.gaps =
        new ScanGaps(keys.shards(), config.misfireGrace().toMillis(), config.preRead().toMillis());
    this.notReady = meters.counter("kairos.scan.shards.not.ready");
    this.claimedFires = meters.counter("kairos.claims.fires");
    this.claimedAdhoc = meters.counter("kairos.claims.adhoc");
    this.fenceRejections = meters.counter("kairos.fence.rejections", "op", "claim");
    this.casSkips = meters.counter("kairos.claims.cas.skips");
    this.duplicates = meters.counter("kairos.claims.duplicates");
    this.misfires = meters.counter("kairos.scan.misfires");
    this.jobErrors = meters.counter("kairos.scan.job.errors");
    this.changedSinceRead = meters.counter("kairos.scan.jobs.changed.since.read");
    this.noLiveNodes = meters.counter("kairos.scan.no.live.nodes");
    this.skippedFires = meters.counter("kairos.claims.skipped");
    this.unknownCalendars = meters.counter("kairos.scan.calendars.unknown");
    this.calendarReads = meters.counter("kairos.scan.calendars.reads");
  }

  /**
   * A pass of {@code term} skipped because scheduling is paused: an operator's choice, so what
   * comes due meanwhile is judged by the misfire rule on resume, with no gap forgiven.
   */
  public void skipPaused(long term) {
    gaps.beginPass(term);
    gaps.completedAll(clock.nowMs());
  }

  /** One pass for {@code term}; see {@link #scan(long, BooleanSupplier)}. */
  public ScanReport scan(long term) {
    return scan(term, () -> true);
  }

  /**
   * One pass over every shard for leader term {@code term}.
   *
   * @param stillLeading checked before every batch; once false the pass ends early (in-flight
   *     script calls complete, and the shard fences keep a stale term out regardless)
   * @throws StaleTermException when a shard is fenced by a higher term: the caller must stop
   *     leading at once
   */
  public ScanReport scan(long term, BooleanSupplier stillLeading) {
    long began = System.nanoTime();
    List<String> nodes = liveNodes.current();
    if (nodes.isEmpty()) {
      noLiveNodes.increment();
      log.warn("term={} no live node to assign fires to; skipping this scan pass", term);
      return new ScanReport(term, 0, 0, 0, 0, 0, 0, 0, 0);
    }
    long now = clock.nowMs();
    gaps.beginPass(term);
    Pass pass =
        new Pass(
            term, now, now + config.preRead().toMillis(), assigner.forPass(nodes), stillLeading);
    List<CompletableFuture<Void>> shards = new ArrayList<>(keys.shards());
    long step = completedTerm == term ? config.spread().toNanos() / keys.shards() : 0;
    long startedNanos = System.nanoTime();
    for (int shard = 0; shard < keys.shards(); shard++) {
      if (step > 0) {
        awaitShardStart(pass, startedNanos + shard * step);
      }
      if (readiness.isReady(shard)) {
        int scanned = shard;
        shards.add(
            pass.page(shard, 0, 0)
                .thenRun(
                    () -> {
                      if (!pass.abort.get() && stillLeading.getAsBoolean()) {
                        gaps.completed(scanned, pass.now);
                      }
                    }));
      } else {
        // Its master lost its data and it is not restored yet: empty is not "no due jobs".
        notReady.increment();
      }
    }
    awaitAll(pass, shards);
    completedTerm = term;
    return pass.report((System.nanoTime() - began) / 1_000_000);
  }

  /** Parks the scan thread until {@code atNanos}, or until the pass ends early. */
  private static void awaitShardStart(Pass pass, long atNanos) {
    long left;
    while ((left = atNanos - System.nanoTime()) > 0
        && !pass.abort.get()
        && pass.stillLeading.getAsBoolean()) {
      LockSupport.parkNanos(left);
      if (Thread.interrupted()) {
        pass.abort.set(true);
        Thread.currentThread().interrupt();
        throw new KairosException("term " + pass.term + ": scan interrupted");
      }
    }
  }

  private void awaitAll(Pass pass, List<CompletableFuture<Void>> shards) {
    try {
      // A shard chains up to maxBatchesPerShard calls, each bounded by the Redis timeout.
      CompletableFuture.allOf(shards.toArray(CompletableFuture[]::new))
          .get(
              config.redisTimeout().toMillis() * config.maxBatchesPerShard(),
              TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      pass.abort.set(true);
      Thread.currentThread().interrupt();
      throw new KairosException("term " + pass.term + ": scan interrupted", e);
    } catch (TimeoutException e) {
      pass.abort.set(true);
      throw new KairosException("term " + pass.term + ": scan pass timed out", e);
    } catch (ExecutionException e) {
      pass.abort.set(true);
      Throwable cause = e.getCause() instanceof CompletionException c ? c.getCause() : e.getCause();
      if (cause instanceof StaleTermException stale) {
        throw stale;
      }
      throw new KairosException("term " + pass.term + ": scan pass failed", cause);
    }
  }

  /** The state of one pass; shared by the shards' chains, hence the atomics. */
  private final class Pass {
    final long term;
    final long now;
    final long horizon;
    final NodePicker picker;
    final BooleanSupplier stillLeading;
    final AtomicBoolean abort = new AtomicBoolean();
    final AtomicInteger jobsSeen = new AtomicInteger();
    final AtomicInteger fires = new AtomicInteger();
    final AtomicInteger adhocFires = new AtomicInteger();
    final AtomicInteger skips = new AtomicInteger();
    final AtomicInteger dups = new AtomicInteger();
    final AtomicInteger misfired = new AtomicInteger();
    final AtomicInteger errors = new AtomicInteger();
    final AtomicInteger batches = new AtomicInteger();

    /** The calendars of this pass, read at most once (by the first page with a job naming one). */
    final AtomicReference<CompletableFuture<CalendarCache.Snapshot>> calendarRead =
        new AtomicReference<>();

    Pass(long term, long now, long horizon, NodePicker picker, BooleanSupplier stillLeading) {
      this.term = term;
      this.now = now;
      this.horizon = horizon;
      this.picker = picker;
      this.stillLeading = stillLeading;
    }

    /**
     * Reads a page of due jobs of {@code shard} starting at {@code offset} and a page of its due
     * ad-hoc triggers, claims them, and follows with the next page while either page was full.
     * Claimed jobs leave the range, so the next page starts after the jobs of this one that stayed
     * (skipped or unchanged); every ad-hoc entry sent leaves its ZSET, so that page always starts
     * at 0.
     */
    CompletableFuture<Void> page(int shard, int offset, int batchNo) {
      if (abort.get() || !stillLeading.getAsBoolean()) {
        return CompletableFuture.completedFuture(null);
      }
      RedisClusterAsyncCommands<String, String> async = redis.async();
      Range<Number> window = Range.create(Double.NEGATIVE_INFINITY, (double) horizon);
      CompletableFuture<List<ScoredValue<String>>> adhocRead =
          async
              .zrangebyscoreWithScores(
                  RedisKeys.adhoc(shard), window, Limit.create(0, config.batchSize()))
              .toCompletableFuture();
      return async
          .zrangebyscoreWithScores(
              RedisKeys.due(shard), window, Limit.create(offset, config.batchSize()))
          .toCompletableFuture()
          .thenCompose(
              due -> readJobs(async, shard, due).thenApply(jobs -> new DueRead(due.size(), jobs)))
          .thenCompose(read -> withCalendars(async, read))
          .thenCombine(adhocRead, Read::new)
          .thenCompose(
              read -> {
                List<DueJob> jobs = read.due.jobs;
                jobsSeen.addAndGet(jobs.size());
                Planned planned = plan(shard, read.due.entries, jobs, read.adhocs);
                if (planned.batch.isEmpty()) {
                  return CompletableFuture.completedFuture(new Claimed(planned, null));
                }
                if (abort.get() || !stillLeading.getAsBoolean()) {
                  return CompletableFuture.completedFuture(new Claimed(planned, null));
                }
                batches.incrementAndGet();
                return planned
                    .batch
                    .send(async)
                    .thenCompose(this::replicated)
                    .toCompletableFuture()
                    .thenApply(outcome -> new Claimed(planned, outcome));
              })
          .thenCompose(
              claimed -> {
                int stayed = settle(shard, claimed);
                boolean full =
                    claimed.planned.read == config.batchSize()
                        || claimed.planned.batch.adhocs().size() == config.batchSize();
                if (full && batchNo + 1 < config.maxBatchesPerShard()) {
                  return page(shard, offset + stayed, batchNo + 1);
                }
                if (full) {
                  log.warn(
                      "term={} shard={} hit {} batches in one pass; the next pass continues",
                      term,
                      shard,
                      config.maxBatchesPerShard());
                }
                return CompletableFuture.completedFuture(null);
              });
    }

    /**
     * {@code read}, once the pass's calendars are known when one of its jobs names any; at once
     * otherwise (no Redis call).
     */
    private CompletableFuture<DueRead> withCalendars(
        RedisClusterAsyncCommands<String, String> async, DueRead read) {
      boolean named = false;
      for (DueJob job : read.jobs) {
        String names = job.hash.get(JobFields.CALENDARS);
        if (names != null && !names.isEmpty()) {
          named = true;
          break;
        }
      }
      if (!named) {
        return CompletableFuture.completedFuture(read);
      }
      CompletableFuture<CalendarCache.Snapshot> mine = new CompletableFuture<>();
      if (calendarRead.compareAndSet(null, mine)) {
        calendarReads.increment();
        calendars
            .refresh(async)
            .whenComplete(
                (snapshot, error) -> {
                  if (error != null) {
                    mine.completeExceptionally(error);
                  } else {
                    mine.complete(snapshot);
                  }
                });
      }
      return calendarRead.get().thenApply(snapshot -> read);
    }

    /** The pass's calendars; only called for a job naming some, after {@link #withCalendars}. */
    private Map<String, ExclusionCalendar> passCalendars() {
      CompletableFuture<CalendarCache.Snapshot> read = calendarRead.get();
      return read == null ? Map.of() : read.join().calendars();
    }

    /**
     * One WAIT for the whole batch (kairos.redis.wait-replicas) before the claimed fires are
     * settled and their nodes notified. A shortfall proceeds (the claim has committed); a failed
     * WAIT (the master is gone, perhaps with the claim) fails the batch like a lost script reply:
     * the next pass finds the fires claimed (CAS skip; the nodes' wheel reconcile picks them up) or
     * unclaimed (claimed again, under the same trigger ids).
     */
    private CompletionStage<ClaimOutcome> replicated(ClaimOutcome outcome) {
      if (!outcome.accepted() || !redis.replicaWait().policy().enabled()) {
        return CompletableFuture.completedFuture(outcome);
      }
      return redis
          .replicaWait()
          .afterWrite(RedisKeys.fence(outcome.shard()))
          .thenApply(
              ack -> {
                if (ack == ReplicaWait.Ack.FAILED) {
                  throw new KairosException(
                      "WAIT after the claim of shard "
                          + outcome.shard()
                          + " failed: its master may be gone, the next pass settles the batch");
                }
                return outcome;
              });
    }

    private CompletableFuture<List<DueJob>> readJobs(
        RedisClusterAsyncCommands<String, String> async, int shard, List<ScoredValue<String>> due) {
      List<CompletableFuture<List<KeyValue<String, String>>>> hashes = new ArrayList<>(due.size());
      for (ScoredValue<String> entry : due) {
        hashes.add(
            async
                .hmget(RedisKeys.job(shard, entry.getValue()), SCHEDULING_FIELDS)
                .toCompletableFuture());
      }
      return CompletableFuture.allOf(hashes.toArray(CompletableFuture[]::new))
          .thenApply(
              done -> {
                List<DueJob> jobs = new ArrayList<>(due.size());
                for (int i = 0; i < due.size(); i++) {
                  jobs.add(
                      new DueJob(
                          due.get(i).getValue(),
                          (long) due.get(i).getScore(),
                          present(hashes.get(i).join())));
                }
                return jobs;
              })
          .thenCompose(jobs -> dropChangedSinceRead(async, shard, jobs));
    }

    /**
     * A job deleted or disabled between the due read and its hash read looks like a due entry
     * without a job, or a disabled job still due: the delete or disable removed its due entry
     * since. Such jobs are dropped quietly (counted, not errors: the claim's CAS would skip them
     * anyway). Only a job whose due entry is still there, unchanged, goes on to be reported. One
     * {@code ZSCORE} per such job, none when there is none: a bulk delete during a pass used to log
     * a warning per job.
     */
    private CompletableFuture<List<DueJob>> dropChangedSinceRead(
        RedisClusterAsyncCommands<String, String> async, int shard, List<DueJob> jobs) {
      List<DueJob> suspects = jobs.stream().filter(DueJob::lacksJobOrIsDisabled).toList();
      if (suspects.isEmpty()) {
        return CompletableFuture.completedFuture(jobs);
      }
      Map<String, CompletableFuture<Double>> scores = new HashMap<>();
      for (DueJob job : suspects) {
        scores.put(job.id, async.zscore(RedisKeys.due(shard), job.id).toCompletableFuture());
      }
      return CompletableFuture.allOf(scores.values().toArray(CompletableFuture[]::new))
          .thenApply(
              done -> {
                Map<String, Double> current = new HashMap<>();
                scores.forEach((id, score) -> current.put(id, score.join()));
                List<DueJob> kept = stillDue(jobs, current);
                int dropped = jobs.size() - kept.size();
                if (dropped > 0) {
                  changedSinceRead.increment(dropped);
                  log.debug(
                      "term={} shard={}: {} jobs deleted or disabled since the due read; skipped",
                      term,
                      shard,
                      dropped);
                }
                return kept;
              });
    }

    private Planned plan(
        int shard, int entriesRead, List<DueJob> jobs, List<ScoredValue<String>> adhocs) {
      ClaimBatch batch =
          new ClaimBatch(shard, term, now, config.dedupWindow().toMillis(), config.eventsMaxLen());
      for (ScoredValue<String> adhoc : adhocs) {
        String triggerId = adhoc.getValue();
        long dueMs = (long) adhoc.getScore();
        String jobId = triggerId.substring(0, Math.max(0, triggerId.indexOf(':')));
        batch.add(new AdhocClaim(triggerId, jobId, dueMs, picker.pick(jobId, dueMs)));
      }
      int unchanged = 0;
      long forgiven = gaps.forgivenMs(shard, now);
      for (DueJob due : jobs) {
        JobClaim claim = planOne(due, forgiven);
        if (claim == null) {
          unchanged++;
        } else {
          batch.add(claim);
        }
      }
      return new Planned(entriesRead, unchanged, batch);
    }

    /** The claim of one job, or null when there is nothing to write for it. */
    private JobClaim planOne(DueJob due, long forgivenMs) {
      if (due.hash.isEmpty()) {
        errors.incrementAndGet();
        jobErrors.increment();
        log.warn("term={} jobId={} is in the due set but has no job hash; skipped", term, due.id);
        return null;
      }
      try {
        JobScheduling job = JobScheduling.fromHash(due.hash);
        if (!job.enabled()) {
          log.warn("term={} jobId={} is disabled but still in the due set; skipped", term, due.id);
          return null;
        }
        Schedule schedule = schedule(job);
        FirePlan plan = fireWindow.plan(job, schedule, due.score, now, horizon, forgivenMs);
        if (plan.misfired()) {
          misfired.incrementAndGet();
          misfires.increment();
          log.info("term={} jobId={} misfired (due {} at now {})", term, job.id(), due.score, now);
        }
        if (plan.fireTimes().isEmpty()
            && plan.next().kind() == NextDue.Kind.AT
            && plan.next().atMs() == due.score) {
          return null;
        }
        List<Long> fireTimes = plan.fireTimes();
        List<SkippedFire> skipped = List.of();
        NextDue next = plan.next();
        if (!job.calendars().isEmpty() && !fireTimes.isEmpty()) {
          CalendarSplit split =
              CalendarSplit.of(
                  fireTimes, job.calendars(), passCalendars(), Schedules.zone(job.zone()));
          reportUnknown(job.id(), split.unknown());
          fireTimes = split.claimed();
          skipped = split.skipped();
          if (fireTimes.isEmpty()
              && next.kind() == NextDue.Kind.PARK
              && schedule instanceof FixedDelaySchedule delay) {
            // Its one fire is skipped, so no trigger end re-arms it: the delay runs from the skip.
            next = NextDue.at(delay.nextFireAfterEnd(skipped.get(skipped.size() - 1).fireMs()));
          }
          if (!skipped.isEmpty()) {
            log.debug(
                "term={} jobId={} fires {} excluded by calendars; recorded SKIPPED",
                term,
                job.id(),
                skipped);
          }
        }
        List<Fire> fires = new ArrayList<>(fireTimes.size());
        for (long fireMs : fireTimes) {
          fires.add(new Fire(fireMs, picker.pick(job.id(), fireMs)));
        }
        return new JobClaim(job.id(), due.score, job.scheduleVersion(), next, fires, skipped);
      } catch (KairosException | IllegalArgumentException e) {
        errors.incrementAndGet();
        jobErrors.increment();
        log.warn("term={} jobId={} cannot be planned, skipped: {}", term, due.id, e.getMessage());
        return null;
      }
    }

    /** Counts the outcome, notifies the nodes, and returns how many jobs stayed in the range. */
    private int settle(int shard, Claimed claimed) {
      ClaimOutcome outcome = claimed.outcome;
      if (outcome == null) {
        return claimed.planned.unchanged + claimed.planned.batch.jobs().size();
      }
      if (!outcome.accepted()) {
        fenceRejections.increment();
        abort.set(true);
        throw new StaleTermException(term, outcome.fence(), shard);
      }
      List<JobClaim> jobs = claimed.planned.batch.jobs();
      Map<String, List<WheelEntry>> perNode = new HashMap<>();
      List<AdhocClaim> adhocs = claimed.planned.batch.adhocs();
      for (int i = 0; i < adhocs.size(); i++) {
        if (outcome.adhocClaimed(i)) {
          AdhocClaim adhoc = adhocs.get(i);
          perNode
              .computeIfAbsent(adhoc.node(), n -> new ArrayList<>())
              .add(new WheelEntry(shard, adhoc.triggerId(), adhoc.dueMs()));
          log.debug(
              "term={} jobId={} triggerId={} ad-hoc trigger claimed for node {} at {}",
              term,
              adhoc.jobId(),
              adhoc.triggerId(),
              adhoc.node(),
              adhoc.dueMs());
        }
      }
      adhocFires.addAndGet(outcome.claimedAdhoc());
      claimedAdhoc.increment(outcome.claimedAdhoc());
      for (int i = 0; i < jobs.size(); i++) {
        if (outcome.skipped(i)) {
          log.debug(
              "term={} jobId={} changed under the scan; CAS skipped", term, jobs.get(i).jobId());
          continue;
        }
        for (Fire fire : jobs.get(i).fires()) {
          String triggerId = TriggerId.scheduled(jobs.get(i).jobId(), fire.fireMs()).value();
          perNode
              .computeIfAbsent(fire.node(), n -> new ArrayList<>())
              .add(new WheelEntry(shard, triggerId, fire.fireMs()));
        }
      }
      fires.addAndGet(outcome.claimedFires());
      skips.addAndGet(outcome.casSkips());
      dups.addAndGet(outcome.duplicates());
      claimedFires.increment(outcome.claimedFires());
      skippedFires.increment(outcome.skippedRecorded());
      casSkips.increment(outcome.casSkips());
      duplicates.increment(outcome.duplicates());
      perNode.forEach(notifier::notifyAssigned);
      return claimed.planned.unchanged + outcome.casSkips();
    }

    ScanReport report(long durationMs) {
      return new ScanReport(
          term,
          jobsSeen.get(),
          fires.get(),
          skips.get(),
          dups.get(),
          misfired.get(),
          errors.get(),
          batches.get(),
          durationMs,
          adhocFires.get());
    }
  }

  /** The values HMGET found: a field the hash lacks comes back empty and is left out. */
  private static Map<String, String> present(List<KeyValue<String, String>> values) {
    Map<String, String> hash = new HashMap<>(values.size() * 2);
    for (KeyValue<String, String> value : values) {
      if (value.hasValue()) {
        hash.put(value.getKey(), value.getValue());
      }
    }
    return hash;
  }

  /** Counts a job's reference to calendars that do not exist, logging each name once. */
  private void reportUnknown(String jobId, Set<String> names) {
    if (names.isEmpty()) {
      return;
    }
    unknownCalendars.increment(names.size());
    for (String name : names) {
      if (unknownCalendarsLogged.size() < 1_000 && unknownCalendarsLogged.add(name)) {
        log.warn(
            "jobId={} names calendar {} which does not exist (deleted?); it excludes nothing",
            jobId,
            name);
      }
    }
  }

  private Schedule schedule(JobScheduling job) {
    CachedSchedule cached = schedules.get(job.id());
    if (cached != null && cached.scheduleVersion == job.scheduleVersion()) {
      return cached.schedule;
    }
    Schedule schedule = job.schedule();
    if (schedules.size() >= MAX_CACHED_SCHEDULES) {
      schedules.clear();
    }
    schedules.put(job.id(), new CachedSchedule(job.scheduleVersion(), schedule));
    return schedule;
  }

  private record CachedSchedule(long scheduleVersion, Schedule schedule) {}

  /**
   * The jobs to plan: all but the suspects ({@code rechecked}, with their due score read again;
   * null when the entry is gone) whose due entry vanished or moved since the first read.
   */
  static List<DueJob> stillDue(List<DueJob> jobs, Map<String, Double> rechecked) {
    List<DueJob> kept = new ArrayList<>(jobs.size());
    for (DueJob job : jobs) {
      if (!rechecked.containsKey(job.id)) {
        kept.add(job);
        continue;
      }
      Double now = rechecked.get(job.id);
      if (now != null && now.longValue() == job.score) {
        kept.add(job);
      }
    }
    return kept;
  }

  record DueJob(String id, long score, Map<String, String> hash) {

    boolean lacksJobOrIsDisabled() {
      String enabled = hash.get(JobFields.ENABLED);
      return hash.isEmpty() || "false".equals(enabled) || "0".equals(enabled);
    }
  }

  /** A page of the due set: how many entries it held, and the jobs of those still due. */
  private record DueRead(int entries, List<DueJob> jobs) {}

  private record Read(DueRead due, List<ScoredValue<String>> adhocs) {}

  private record Planned(int read, int unchanged, ClaimBatch batch) {}

  private record Claimed(Planned planned, ClaimOutcome outcome) {}
}
