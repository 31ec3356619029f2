package dev.kairos.node.lifecycle.guard;

import dev.kairos.core.lifecycle.Lifecycle;
import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.KairosClock;
import dev.kairos.node.fire.TriggerSender;
import dev.kairos.protocol.fence.StaleTermException;
import dev.kairos.protocol.lost.LostCandidate;
import dev.kairos.protocol.lost.LostResult;
import dev.kairos.protocol.lost.OpenPage;
import dev.kairos.protocol.lost.OpenTrigger;
import dev.kairos.protocol.lost.OpenTriggerStore;
import dev.kairos.protocol.lost.Redispatch;
import dev.kairos.protocol.lost.RedispatchResult;
import dev.kairos.protocol.lost.Redispatched;
import dev.kairos.protocol.message.TriggerMessage;
import dev.kairos.protocol.slot.SlotInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The lost-trigger monitor of ONE leader term, on a named thread: every interval it reads each
 * shard's open-trigger index, reads the live slot leases once per app, judges ({@link
 * LostTriggerJudge}) and writes the verdicts with one fenced script call per shard per batch:
 * RUNNING triggers whose executor died become LOST, DISPATCHED ones that cannot start where they
 * were sent are published again with the same trigger id. Only what the fenced script accepted is
 * published, so a stale leader publishes nothing; a fence rejection closes the monitor and is
 * reported to {@code onStaleTerm} so the node steps down. A pass over a backlog stretches the pause
 * before the next one ({@link PassPacing}), so a backlog of open triggers does not cost Redis in
 * proportion to its size every interval.
 */
final class LostTriggerMonitor implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(LostTriggerMonitor.class);
  private static final Pattern BROADCAST = Pattern.compile("#(\\d+)/(\\d+)");

  private final long term;
  private final OpenTriggerStore store;
  private final RedisKeys keys;
  private final Function<String, List<SlotInfo>> liveSlots;
  private final TriggerSender sender;
  private final KairosClock clock;
  private final LostMonitorSettings settings;
  private final LostTriggerJudge judge;
  private final Consumer<StaleTermException> onStaleTerm;
  private final GuardMeters meters;
  private final Lifecycle lifecycle = new Lifecycle("lost-trigger monitor");
  private final PassPacing pacing;
  private volatile ScheduledExecutorService executor;
  private boolean backingOff; // monitor thread only
  private long lastRead; // monitor thread only: open triggers the last complete pass read

  LostTriggerMonitor(
      long term,
      OpenTriggerStore store,
      RedisKeys keys,
      Function<String, List<SlotInfo>> liveSlots,
      TriggerSender sender,
      KairosClock clock,
      LostMonitorSettings settings,
      Consumer<StaleTermException> onStaleTerm,
      GuardMeters meters) {
    this.term = term;
    this.store = store;
    this.keys = keys;
    this.liveSlots = liveSlots;
    this.sender = sender;
    this.clock = clock;
    this.settings = settings;
    this.judge =
        new LostTriggerJudge(
            settings.startTimeout().toMillis(), settings.backlogLimit().toMillis());
    this.onStaleTerm = onStaleTerm;
    this.meters = meters;
    this.pacing = PassPacing.of(settings);
  }

  long term() {
    return term;
  }

  boolean isRunning() {
    return lifecycle.isStarted();
  }

  private String threadName() {
    return "kairos-lost-monitor-term-" + term;
  }

  void start() {
    lifecycle.start();
    executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, threadName());
              thread.setDaemon(true);
              return thread;
            });
    long every = pacing.intervalMs();
    meters.passDelayMs.set(every);
    executor.schedule(this::runAndReschedule, every, TimeUnit.MILLISECONDS);
    log.info("term={} lost-trigger monitor started, every {} ms", term, every);
  }

  private void runAndReschedule() {
    long read = runOnce();
    if (!isRunning()) {
      return;
    }
    if (read < 0) {
      // A failed pass (under overload, often a timed-out page) paces like the last complete one:
      // retrying a backlog every interval is what the pacing is there to stop.
      read = lastRead;
    }
    lastRead = read;
    long delay = pacing.delayAfter(read);
    meters.passDelayMs.set(delay);
    boolean backingOff = pacing.backsOff(read);
    if (backingOff) {
      meters.backOffs.increment();
    }
    if (backingOff != this.backingOff) {
      this.backingOff = backingOff;
      if (backingOff) {
        log.warn(
            "term={} lost-trigger pass read {} open triggers; passes now wait {} ms (at most {}"
                + " reads a second) until the backlog clears",
            term,
            read,
            delay,
            pacing.readsPerSecond());
      } else {
        log.info(
            "term={} lost-trigger pass read {} open triggers; back to every {} ms",
            term,
            read,
            delay);
      }
    }
    try {
      executor.schedule(this::runAndReschedule, delay, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // closed between the check above and here: nothing more to run
    }
  }

  /** One pass, guarded; returns how many open triggers it read, or -1 when it failed. */
  private long runOnce() {
    if (!isRunning()) {
      return -1;
    }
    try {
      PassReport report = pass();
      meters.passes.increment();
      return report.read;
    } catch (StaleTermException e) {
      log.warn("term={} is stale (fence {}); the lost-trigger monitor stops", term, e.fence());
      close();
      onStaleTerm.accept(e);
    } catch (RuntimeException e) {
      if (isRunning()) {
        meters.errors.increment();
        log.error("term={} lost-trigger pass failed; the monitor will keep running", term, e);
      }
    }
    return -1;
  }

  /**
   * One pass over every shard. Package-private so tests can drive it on their own thread.
   *
   * @throws StaleTermException when a shard is fenced by a higher term
   */
  PassReport pass() {
    PassReport report = new PassReport();
    List<List<OpenTrigger>> perShard = readAll(report);
    Map<String, List<SlotInfo>> slots = new HashMap<>();
    for (List<OpenTrigger> shard : perShard) {
      for (OpenTrigger t : shard) {
        if (!t.app().isEmpty()) {
          slots.computeIfAbsent(t.app(), app -> List.copyOf(liveSlots.apply(app)));
        }
      }
    }
    long now = clock.nowMs();
    for (int shard = 0; shard < perShard.size(); shard++) {
      if (lifecycle.state() == Lifecycle.State.CLOSED) {
        break; // closed mid-pass: stop writing at once (the fence would stop a stale term anyway)
      }
      LostTriggerJudge.Verdicts verdicts = judge.judge(perShard.get(shard), slots, now);
      report.noLiveSlot += verdicts.noLiveSlot();
      report.backlogged += verdicts.backlogged();
      for (List<LostCandidate> batch : batches(verdicts.lost())) {
        LostResult result = store.markLost(term, shard, batch, now);
        report.lost += result.lost().size();
        report.cancelled += result.cancelled().size();
        result.lost().forEach(id -> logEnd(id, "LOST"));
        result.cancelled().forEach(id -> logEnd(id, "CANCELLED"));
      }
      for (List<Redispatch> batch : batches(verdicts.redispatch())) {
        RedispatchResult result = store.redispatch(term, shard, batch, now);
        report.expired += result.expired();
        report.noExecutor += result.noExecutor();
        for (Redispatched r : result.accepted()) {
          publish(r, now);
          report.redispatched++;
        }
      }
    }
    meters.lost.increment(report.lost);
    meters.cancelled.increment(report.cancelled);
    meters.redispatched.increment(report.redispatched);
    meters.expired.increment(report.expired);
    meters.noExecutor.increment(report.noExecutor);
    meters.noLiveSlot.increment(report.noLiveSlot);
    meters.backlogged.increment(report.backlogged);
    if (report.lost + report.cancelled + report.redispatched + report.expired + report.noExecutor
        > 0) {
      log.info("term={} lost-trigger pass: {}", term, report);
    }
    return report;
  }

  private List<List<OpenTrigger>> readAll(PassReport report) {
    List<CompletableFuture<OpenPage>> first = new ArrayList<>(keys.shards());
    for (int shard = 0; shard < keys.shards(); shard++) {
      first.add(store.readAsync(shard, 0, settings.batchSize()).toCompletableFuture());
    }
    List<List<OpenTrigger>> perShard = new ArrayList<>(keys.shards());
    for (int shard = 0; shard < keys.shards(); shard++) {
      OpenPage page = first.get(shard).join();
      report.read += page.read();
      List<OpenTrigger> rows = new ArrayList<>(page.triggers());
      int offset = page.read() - page.removed();
      int pages = 1;
      while (page.read() == settings.batchSize() && pages < settings.maxPagesPerShard()) {
        page = store.read(shard, offset, settings.batchSize());
        report.read += page.read();
        rows.addAll(page.triggers());
        offset += page.read() - page.removed();
        pages++;
      }
      if (page.read() == settings.batchSize() && pages == settings.maxPagesPerShard()) {
        meters.pageLimit.increment();
        log.warn(
            "term={} shard={} has more than {} open triggers; the next pass examines the rest",
            term,
            shard,
            offset);
      }
      perShard.add(rows);
    }
    return perShard;
  }

  private <T> List<List<T>> batches(List<T> all) {
    List<List<T>> out = new ArrayList<>();
    for (int i = 0; i < all.size(); i += settings.batchSize()) {
      out.add(all.subList(i, Math.min(all.size(), i + settings.batchSize())));
    }
    return out;
  }

  private void logEnd(String triggerId, String how) {
    MDC.put("triggerId", triggerId);
    MDC.put("jobId", triggerId.substring(0, triggerId.indexOf(':')));
    try {
      log.warn(
          "term={} trigger {} ended {}: its executor holds no live slot lease",
          term,
          triggerId,
          how);
    } finally {
      MDC.remove("triggerId");
      MDC.remove("jobId");
    }
  }

  /** Publishes an accepted re-dispatch; a failure is counted and left to the next pass. */
  private void publish(Redispatched r, long now) {
    int index = 0;
    int total = 1;
    Matcher m = BROADCAST.matcher(r.triggerId());
    if (m.find()) {
      index = Integer.parseInt(m.group(1));
      total = Integer.parseInt(m.group(2));
    }
    BlockStrategy block =
        r.block().isEmpty() ? BlockStrategy.SERIAL_EXECUTION : BlockStrategy.valueOf(r.block());
    TriggerMessage message =
        TriggerMessage.of(
            r.triggerId(),
            r.app(),
            r.handler(),
            r.fireMs(),
            r.attempt(),
            r.params(),
            index,
            total,
            r.timeoutMs(),
            block,
            term,
            now);
    MDC.put("triggerId", r.triggerId());
    MDC.put("jobId", r.jobId());
    try {
      log.info("term={} re-dispatching trigger {} to slot {}", term, r.triggerId(), r.slot());
      sender
          .send(message, r.slot())
          .whenComplete(
              (ok, failure) -> {
                if (failure != null) {
                  meters.publishFailures.increment();
                  log.warn(
                      "re-dispatch of trigger {} to slot {} failed ({}); the next pass retries"
                          + " after the start timeout",
                      r.triggerId(),
                      r.slot(),
                      failure.toString());
                }
              });
    } catch (RuntimeException e) {
      meters.publishFailures.increment();
      log.warn("re-dispatch of trigger {} failed: {}", r.triggerId(), e.toString());
    } finally {
      MDC.remove("triggerId");
      MDC.remove("jobId");
    }
  }

  /** Stops the monitor at once; close twice is a no-op. */
  @Override
  public void close() {
    Lifecycle.State previous = lifecycle.closeFrom();
    if (previous == Lifecycle.State.CLOSED || executor == null) {
      return;
    }
    if (Thread.currentThread().getName().equals(threadName())) {
      executor.shutdown(); // closing from inside a pass (fence rejection): no self-interrupt
      return;
    }
    executor.shutdownNow();
    try {
      if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
        log.warn("term={} lost-trigger monitor thread did not stop within 5 s", term);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    log.info("term={} lost-trigger monitor closed", term);
  }

  /** What one pass did. */
  static final class PassReport {
    /** Open-trigger index entries examined, removed ones included. */
    long read;

    int lost;
    int cancelled;
    int redispatched;
    int expired;
    int noExecutor;
    int noLiveSlot;
    int backlogged;

    @Override
    public String toString() {
      return "lost="
          + lost
          + " cancelled="
          + cancelled
          + " redispatched="
          + redispatched
          + " expired="
          + expired
          + " noExecutor="
          + noExecutor
          + " noLiveSlot="
          + noLiveSlot
          + " backlogged="
          + backlogged;
    }
  }
}
