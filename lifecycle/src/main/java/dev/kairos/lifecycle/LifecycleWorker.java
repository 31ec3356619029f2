package dev.kairos.lifecycle;

import dev.kairos.core.alarm.AlarmSink;
import dev.kairos.core.lifecycle.Lifecycle;
import dev.kairos.core.lifecycle.LoopThread;
import dev.kairos.core.redis.ConsumerGroups;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.KairosClock;
import dev.kairos.protocol.adhoc.AdhocTriggers;
import dev.kairos.protocol.event.EventsConsumerSettings;
import dev.kairos.protocol.event.IdleEntryClaimer;
import io.lettuce.core.Consumer;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XReadArgs;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings every trigger's end to its consequences: retries, child-job triggers, the FIXED_DELAY
 * re-arm and the final-failure alarm ({@link LifecyclePolicy}). It reads the one {@code
 * TRIGGER_ENDED} event of each trigger (docs/protocol.md).
 *
 * <p>Every node runs one worker, a consumer of the group {@code kairos-lifecycle} on every shard's
 * events stream, so the group spreads the work and a node's death costs nothing: its unacknowledged
 * entries stay pending and a live worker takes them over with XAUTOCLAIM once they have been idle
 * for {@link EventsConsumerSettings#claimIdle()}. A round reads up to a batch per shard (all shards
 * in parallel), reacts ({@link ShardReactor}: two pipelined rounds per shard that has reactions)
 * and only then acknowledges, every shard at once: a round costs a fixed number of waits, not two
 * per shard it touched. Events are delivered at least once and every reaction is idempotent:
 * retries and child triggers have deterministic ids (a second submission is a DUPLICATE), and the
 * re-arm script only releases a job still parked by that chain.
 *
 * <p>persistence-sync trims the streams below what every group acknowledged, so this group's
 * backlog is never trimmed away.
 *
 * <p>Threads: one named {@code kairos-lifecycle-<consumer>}; only it touches the fields below
 * except its lifecycle.
 */
public final class LifecycleWorker implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(LifecycleWorker.class);

  /**
   * After a round with entries but no full batch, pause half the poll interval: a read of every
   * shard's stream costs Redis a few hundred microseconds whatever it finds, so under light, steady
   * traffic the pause, not the traffic, sets what these reads cost.
   */
  private static final long BUSY_PAUSE_DIVISOR = 2;

  private final Lifecycle lifecycle;
  private final KairosRedis redis;
  private final RedisKeys keys;
  private final LifecycleConfig config;
  private final EventsConsumerSettings settings;
  private final IdleEntryClaimer claimer;
  private final LifecycleMetrics metrics;
  private final ShardReactor reactor;
  private final Consumer<String> me;
  private volatile LoopThread thread;

  // Only the worker thread touches these.
  private final boolean[] readOwnPending;
  private final Map<String, Integer> shardOfStream;
  private long nextClaimAtNanos;
  private boolean lastRoundFilledABatch;

  public LifecycleWorker(
      KairosRedis redis,
      RedisKeys keys,
      AdhocTriggers adhoc,
      AlarmSink alarms,
      KairosClock clock,
      LifecycleConfig config,
      MeterRegistry meters) {
    this(redis, keys, adhoc, alarms, clock, config, meters, ChainEndListener.NONE);
  }

  /**
   * @param chainEnds told every trigger chain's final end it accepts, before the end's stream entry
   *     is acknowledged (the workflows' driver)
   */
  public LifecycleWorker(
      KairosRedis redis,
      RedisKeys keys,
      AdhocTriggers adhoc,
      AlarmSink alarms,
      KairosClock clock,
      LifecycleConfig config,
      MeterRegistry meters,
      ChainEndListener chainEnds) {
    this.config = Objects.requireNonNull(config, "config");
    this.settings = config.events();
    this.redis = Objects.requireNonNull(redis, "redis");
    this.keys = Objects.requireNonNull(keys, "keys");
    this.lifecycle = new Lifecycle("lifecycle worker " + settings.consumer());
    this.metrics = new LifecycleMetrics(meters);
    this.reactor =
        new ShardReactor(
            redis,
            keys,
            adhoc,
            new LifecyclePolicy(
                config.maxChildDepth(), () -> ThreadLocalRandom.current().nextDouble()),
            alarms,
            clock,
            metrics,
            config.redisTimeout(),
            Objects.requireNonNull(chainEnds, "chainEnds"));
    this.me = Consumer.from(settings.group(), settings.consumer());
    this.claimer = new IdleEntryClaimer(redis, settings);
    this.readOwnPending = new boolean[keys.shards()];
    Map<String, Integer> streams = new HashMap<>();
    for (int s = 0; s < keys.shards(); s++) {
      streams.put(RedisKeys.events(s), s);
    }
    this.shardOfStream = Map.copyOf(streams);
    this.nextClaimAtNanos = System.nanoTime(); // the first round looks for idle entries
    // A restarted node under the same consumer name first finishes what it had read.
    Arrays.fill(readOwnPending, true);
  }

  /** Creates the group on every shard (at the stream's start) and starts the worker thread. */
  public void start() {
    lifecycle.start();
    for (int s = 0; s < keys.shards(); s++) {
      ensureGroup(s);
    }
    thread = LoopThread.start("kairos-lifecycle-" + settings.consumer(), this::run);
  }

  public Lifecycle.State state() {
    return lifecycle.state();
  }

  @Override
  public void close() {
    if (!lifecycle.close()) {
      return;
    }
    LoopThread t = thread;
    if (t == null) {
      return;
    }
    t.close();
    log.info("lifecycle worker {} closed", settings.consumer());
  }

  private void run() {
    log.info(
        "lifecycle worker {} started (group {}, {} shards)",
        settings.consumer(),
        settings.group(),
        keys.shards());
    while (lifecycle.isStarted() && !Thread.currentThread().isInterrupted()) {
      try {
        int handled = round();
        if (handled == 0) {
          Thread.sleep(settings.pollInterval().toMillis());
        } else if (!lastRoundFilledABatch) {
          // Traffic but no backlog: a short pause lets each shard's next read carry a batch
          // instead of re-reading every shard for one or two entries at once.
          Thread.sleep(Math.max(1, settings.pollInterval().toMillis() / BUSY_PAUSE_DIVISOR));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException e) {
        if (!lifecycle.isStarted()) {
          break; // close() interrupted the round in flight: not a failure
        }
        metrics.loopErrors.increment();
        // What was read and not acknowledged is pending to this consumer: read it again first.
        Arrays.fill(readOwnPending, true);
        log.warn("lifecycle round failed; will keep running: {}", e.toString());
        try {
          Thread.sleep(Math.max(settings.pollInterval().toMillis(), 500));
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /** One round over every shard; returns the number of entries handled. */
  int round() {
    if (System.nanoTime() - nextClaimAtNanos >= 0) {
      claimIdle();
      nextClaimAtNanos = System.nanoTime() + settings.claimInterval().toNanos();
    }
    List<List<StreamMessage<String, String>>> reads =
        redis.isCluster() ? readEachShard() : readAllShardsAtOnce();
    lastRoundFilledABatch = false;
    List<Integer> shards = new ArrayList<>();
    for (int s = 0; s < reads.size(); s++) {
      List<StreamMessage<String, String>> messages = reads.get(s);
      if (messages.size() >= settings.batchSize()) {
        lastRoundFilledABatch = true;
      }
      if (messages.isEmpty()) {
        readOwnPending[s] = false;
        continue;
      }
      shards.add(s);
    }
    if (shards.isEmpty()) {
      return 0;
    }
    for (int s : shards) {
      reactor.react(s, reads.get(s));
    }
    // Safety: acknowledge only after every reaction is in Redis; a crash or a failure before
    // replays them (every reaction is idempotent).
    List<CompletableFuture<Long>> acks = new ArrayList<>(shards.size());
    int handled = 0;
    for (int s : shards) {
      List<StreamMessage<String, String>> messages = reads.get(s);
      acks.add(
          redis
              .async()
              .xack(
                  RedisKeys.events(s),
                  settings.group(),
                  messages.stream().map(StreamMessage::getId).toArray(String[]::new))
              .toCompletableFuture());
      handled += messages.size();
    }
    awaitAll(acks, "acknowledge events");
    return handled;
  }

  /** Redis Cluster: one read per shard (their streams live in different slots), all in flight. */
  private List<List<StreamMessage<String, String>>> readEachShard() {
    List<CompletableFuture<List<StreamMessage<String, String>>>> reads =
        new ArrayList<>(keys.shards());
    for (int s = 0; s < keys.shards(); s++) {
      reads.add(
          redis
              .async()
              .xreadgroup(
                  me,
                  XReadArgs.Builder.count(settings.batchSize()),
                  XReadArgs.StreamOffset.from(RedisKeys.events(s), readOwnPending[s] ? "0" : ">"))
              .toCompletableFuture());
    }
    List<List<StreamMessage<String, String>>> perShard = new ArrayList<>(reads.size());
    for (int s = 0; s < reads.size(); s++) {
      perShard.add(read(s, reads.get(s)));
    }
    return perShard;
  }

  /**
   * One Redis server holds every shard: one XREADGROUP over all the streams, so a round costs one
   * command instead of one per shard whatever the traffic.
   */
  @SuppressWarnings("unchecked")
  private List<List<StreamMessage<String, String>>> readAllShardsAtOnce() {
    XReadArgs.StreamOffset<String>[] offsets = new XReadArgs.StreamOffset[keys.shards()];
    for (int s = 0; s < offsets.length; s++) {
      offsets[s] = XReadArgs.StreamOffset.from(RedisKeys.events(s), readOwnPending[s] ? "0" : ">");
    }
    List<List<StreamMessage<String, String>>> perShard = new ArrayList<>(offsets.length);
    for (int s = 0; s < offsets.length; s++) {
      perShard.add(new ArrayList<>());
    }
    List<StreamMessage<String, String>> all;
    try {
      all =
          redis
              .async()
              .xreadgroup(me, XReadArgs.Builder.count(settings.batchSize()), offsets)
              .get(config.redisTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return perShard;
    } catch (Exception e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (isNoGroup(cause)) {
        // Some stream was flushed (e.g. Redis lost its data): recreate the groups, move on.
        log.warn("consumer group {} missing on some shard; recreating them", settings.group());
        for (int s = 0; s < offsets.length; s++) {
          ensureGroup(s);
        }
        return perShard;
      }
      throw new IllegalStateException("cannot read the shards' events", cause);
    }
    for (StreamMessage<String, String> m : all) {
      Integer shard = shardOfStream.get(m.getStream());
      if (shard != null) {
        perShard.get(shard).add(m);
      }
    }
    return perShard;
  }

  private List<StreamMessage<String, String>> read(
      int shard, CompletableFuture<List<StreamMessage<String, String>>> read) {
    try {
      return read.get(config.redisTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return List.of();
    } catch (Exception e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (isNoGroup(cause)) {
        // The stream was flushed (e.g. a master lost its data): recreate the group, move on.
        log.warn("shard {}: consumer group {} missing; recreating it", shard, settings.group());
        ensureGroup(shard);
        return List.of();
      }
      throw new IllegalStateException("cannot read shard " + shard + " events", cause);
    }
  }

  /** Waits for every call of a round, all in flight at once: one wait, not one per shard. */
  private void awaitAll(List<? extends CompletableFuture<?>> calls, String what) {
    try {
      CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
          .get(config.redisTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: " + what, e);
    } catch (Exception e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new IllegalStateException("cannot " + what, cause);
    }
  }

  /** Takes over entries another (dead) consumer read and never acknowledged. */
  private void claimIdle() {
    claimer.claim(
        keys.shards(),
        (s, ids) -> {
          metrics.claimed.increment(ids.size());
          readOwnPending[s] = true;
          log.info(
              "shard {}: took over {} idle lifecycle entries from dead consumers", s, ids.size());
        });
  }

  private void ensureGroup(int shard) {
    ConsumerGroups.create(redis, RedisKeys.events(shard), settings.group());
  }

  private static boolean isNoGroup(Throwable e) {
    return ConsumerGroups.isNoGroup(e);
  }
}
