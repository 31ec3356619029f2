package dev.kairos.sync.worker;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.lifecycle.Lifecycle;
import dev.kairos.core.lifecycle.LoopThread;
import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.protocol.event.EventsConsumerSettings;
import dev.kairos.protocol.event.IdleEntryClaimer;
import dev.kairos.protocol.record.EndedCompaction;
import dev.kairos.sync.event.EventParser;
import dev.kairos.sync.event.SyncEvent;
import dev.kairos.sync.store.SyncStore;
import io.lettuce.core.Consumer;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XReadArgs;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies every shard's events stream into PostgreSQL (write-behind).
 *
 * <p>Every node runs one worker as its own consumer of one shared consumer group, so each entry is
 * applied by one node at a time, and a node's death costs nothing: its unacknowledged entries stay
 * pending in Redis and another node's worker takes them over with XAUTOCLAIM once they have been
 * idle for {@link EventsConsumerSettings#claimIdle()}. A round reads up to a batch per shard,
 * applies all of it in one PostgreSQL transaction, and only then acknowledges (XACK); acknowledged
 * entries are trimmed (XTRIM MINID below the oldest pending entry), never unacknowledged ones.
 * Upserts are idempotent and ordered by guards ({@link SyncStore}), so a replay or out-of-order
 * recovery never regresses a row.
 *
 * <p>PostgreSQL is never on the trigger path: nothing waits for this worker. It starts with the
 * node whatever the database does, runs the schema migrations when it first reaches PostgreSQL, and
 * backs off while PostgreSQL (or Redis) is unavailable; entries simply stay pending.
 *
 * <p>Threads: one thread named {@code kairos-sync-<consumer>}; only it touches the fields below
 * except its lifecycle.
 */
public final class StreamSyncWorker implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(StreamSyncWorker.class);

  /**
   * After a round with entries but no full batch, pause half the poll interval: a read of every
   * shard's stream costs Redis a few hundred microseconds whatever it finds, so under light, steady
   * traffic the pause, not the traffic, sets what these reads cost.
   */
  private static final long BUSY_PAUSE_DIVISOR = 2;

  /** The dedup window a cluster that has not recorded one in its metadata uses. */
  private static final Duration DEFAULT_DEDUP_WINDOW = Duration.ofMinutes(10);

  private final Lifecycle lifecycle;
  private final KairosRedis redis;
  private final SyncStore store;
  private final SchemaMigrator migrator;
  private final SyncConfig config;
  private final EventsConsumerSettings settings;
  private final IdleEntryClaimer claimer;
  private final SyncMetrics metrics;
  private final SyncFaults faults;
  private final EventParser parser = new EventParser();
  private final StreamGroups groups;
  private final DeadConsumers deadConsumers;
  private final Consumer<String> me;
  private final Backoff backoff;
  private volatile LoopThread thread;
  private volatile boolean schemaReady;

  // Only the worker thread touches these.
  private int shards;
  private EndedCompaction compaction;
  private boolean[] readOwnPending = new boolean[0];
  private int nextShard;
  private boolean lastRoundFilledABatch;
  private long nextClaimAtMs;
  private long nextTrimAtMs;

  public StreamSyncWorker(
      KairosRedis redis,
      SyncStore store,
      SchemaMigrator migrator,
      SyncConfig config,
      SyncMetrics metrics,
      SyncFaults faults) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.store = Objects.requireNonNull(store, "store");
    this.migrator = Objects.requireNonNull(migrator, "migrator");
    this.config = Objects.requireNonNull(config, "config");
    this.settings = config.events();
    this.lifecycle = new Lifecycle("sync worker " + settings.consumer());
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.faults = Objects.requireNonNull(faults, "faults");
    this.groups = new StreamGroups(redis, settings.group());
    this.deadConsumers =
        new DeadConsumers(redis, settings.group(), settings.consumer(), config.consumerExpiry());
    this.me = Consumer.from(settings.group(), settings.consumer());
    this.claimer = new IdleEntryClaimer(redis, settings);
    this.backoff = new Backoff(config.retryInitial(), config.retryMax());
  }

  /** Starts the worker thread; returns at once (PostgreSQL is not contacted here). */
  public void start() {
    lifecycle.start();
    thread = LoopThread.start("kairos-sync-" + settings.consumer(), this::run);
  }

  /** Whether the schema migrations have run (PostgreSQL was reached at least once). */
  public boolean schemaReady() {
    return schemaReady;
  }

  /** Whether the worker thread is running (false after close, or after a simulated crash). */
  public boolean isRunning() {
    LoopThread t = thread;
    return t != null && t.isAlive();
  }

  @Override
  public void close() {
    if (!lifecycle.close()) {
      return;
    }
    LoopThread t = thread;
    if (t != null) {
      t.close();
    }
  }

  private void run() {
    log.info(
        "persistence-sync worker {} started (group {})", settings.consumer(), settings.group());
    while (lifecycle.isStarted() && !Thread.currentThread().isInterrupted()) {
      try {
        boolean busy = step();
        backoff.reset();
        if (!busy) {
          Thread.sleep(settings.pollInterval().toMillis());
        } else if (!lastRoundFilledABatch) {
          // Traffic but no backlog: a short pause lets the next round write a batch in one
          // transaction instead of re-reading every shard for one or two entries at once.
          Thread.sleep(Math.max(1, settings.pollInterval().toMillis() / BUSY_PAUSE_DIVISOR));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (SQLException | org.flywaydb.core.api.FlywayException e) {
        if (closing()) {
          break;
        }
        metrics.databaseFailure();
        pause(e, "PostgreSQL unavailable");
      } catch (SyncFaults.SimulatedCrash crash) {
        throw crash;
      } catch (RuntimeException e) {
        if (closing()) {
          break; // close() interrupted a command in flight: not a failure
        }
        metrics.loopError();
        pause(e, "sync round failed");
      } catch (VirtualMachineError fatal) {
        throw fatal;
      } catch (Error e) {
        // e.g. a driver's assertion on a connection that died under it: not worth the thread.
        metrics.loopError();
        pause(new RuntimeException(e), "sync round failed");
      }
    }
    log.info("persistence-sync worker {} stopped", settings.consumer());
  }

  /** True once close() began: it interrupts the thread, which fails the command in flight. */
  private boolean closing() {
    return !lifecycle.isStarted();
  }

  private void pause(Exception e, String what) {
    // Whatever was read but not acknowledged is pending to this consumer: read it again first.
    java.util.Arrays.fill(readOwnPending, true);
    long delay = backoff.next();
    // Only the message: a JDBC exception never carries the password, but keep logs short.
    log.warn(
        "{} ({}); will keep running, retrying in {} ms",
        what,
        e.getClass().getSimpleName() + ": " + e.getMessage(),
        delay);
    try {
      Thread.sleep(delay);
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
    }
  }

  /** One round; returns true when it applied something (so the next round starts at once). */
  boolean step() throws SQLException {
    if (!schemaReady) {
      int applied = migrator.migrate();
      schemaReady = true;
      log.info("persistence-sync schema ready ({} migrations applied)", applied);
    }
    if (shards == 0 && !discoverShards()) {
      return false;
    }
    long now = System.currentTimeMillis();
    if (now >= nextClaimAtMs) {
      claimIdle();
      removeDeadConsumers();
      nextClaimAtMs = now + settings.claimInterval().toMillis();
    }
    int applied = syncRound();
    if (now >= nextTrimAtMs) {
      trimAll();
      nextTrimAtMs = now + config.trimInterval().toMillis();
    }
    return applied > 0;
  }

  private boolean discoverShards() {
    String stored = redis.sync().hget(RedisKeys.META, ClusterMetadata.SHARDS);
    if (stored == null) {
      log.debug("no shard count in {} yet; waiting for the cluster to initialise", RedisKeys.META);
      return false;
    }
    int n = Integer.parseInt(stored);
    String dedup = redis.sync().hget(RedisKeys.META, ClusterMetadata.DEDUP_WINDOW_MS);
    compaction =
        new EndedCompaction(
            redis, dedup == null ? DEFAULT_DEDUP_WINDOW : Duration.ofMillis(Long.parseLong(dedup)));
    for (int s = 0; s < n; s++) {
      groups.ensure(s);
    }
    readOwnPending = new boolean[n];
    // A restarted node under the same consumer name first finishes what it had read.
    java.util.Arrays.fill(readOwnPending, true);
    shards = n;
    log.info("persistence-sync worker {} follows {} shard streams", settings.consumer(), n);
    return true;
  }

  /** Runs after {@link #claimIdle()}: a dead consumer whose entries were taken has none left. */
  private void removeDeadConsumers() {
    for (int s = 0; s < shards; s++) {
      List<String> removed;
      try {
        removed = deadConsumers.sweep(s);
      } catch (RuntimeException e) {
        if (StreamGroups.isNoGroup(e)) {
          groups.ensure(s);
          continue;
        }
        throw e;
      }
      if (!removed.isEmpty()) {
        metrics.consumersRemoved(removed.size());
        log.info(
            "shard {}: removed consumers {} of group {} (idle over {} with nothing pending)",
            s,
            removed,
            settings.group(),
            config.consumerExpiry());
      }
    }
  }

  /** Takes over entries that another (dead) consumer read and never acknowledged. */
  private void claimIdle() {
    claimer.claim(
        shards,
        (s, ids) -> {
          metrics.claimed(ids.size());
          readOwnPending[s] = true;
          log.info(
              "shard {}: took over {} idle pending entries from dead consumers", s, ids.size());
        });
  }

  private int syncRound() throws SQLException {
    Map<Integer, List<String>> idsByShard = new LinkedHashMap<>();
    List<SyncEvent> events = new ArrayList<>();
    int first = nextShard;
    lastRoundFilledABatch = false;
    // One server holds every shard: one read over all of them instead of one per shard.
    List<List<StreamMessage<String, String>>> readAtOnce =
        redis.isCluster() ? null : readAllShards();
    int batch = readAtOnce == null ? settings.batchSize() : allShardsCount();
    for (int k = 0; k < shards && events.size() < config.maxEventsPerRound(); k++) {
      int s = (first + k) % shards;
      nextShard = (s + 1) % shards;
      List<StreamMessage<String, String>> messages =
          readAtOnce == null ? read(s) : readAtOnce.get(s);
      if (messages.isEmpty()) {
        continue;
      }
      if (messages.size() >= batch) {
        lastRoundFilledABatch = true;
      }
      List<String> ids = new ArrayList<>(messages.size());
      for (StreamMessage<String, String> m : messages) {
        ids.add(m.getId());
        SyncEvent event = parser.parse(s, m.getId(), m.getBody());
        if (event instanceof SyncEvent.Unknown u) {
          metrics.unknown();
          log.warn(
              "shard {} entry {}: {} ({}); acknowledged without writing",
              s,
              u.id(),
              u.problem(),
              u.type());
        }
        events.add(event);
      }
      idsByShard.put(s, ids);
    }
    if (readAtOnce != null) {
      for (int s = 0; s < shards; s++) {
        if (!readAtOnce.get(s).isEmpty() && !idsByShard.containsKey(s)) {
          readOwnPending[s] = true; // delivered to this consumer, not reached: read it again
        }
      }
    }
    if (events.isEmpty()) {
      return 0;
    }
    if (events.size() >= config.maxEventsPerRound()) {
      lastRoundFilledABatch = true;
    }
    faults.afterRead(events);
    store.apply(events);
    faults.afterCommit(events);
    // Safety: acknowledge only after the commit; a crash before this replays the entries.
    List<CompletableFuture<?>> writes = new ArrayList<>(2 * idsByShard.size());
    idsByShard.forEach(
        (s, ids) ->
            writes.add(
                redis
                    .async()
                    .xack(RedisKeys.events(s), settings.group(), ids.toArray(String[]::new))
                    .toCompletableFuture()));
    compactSucceeded(events, writes);
    awaitAll(writes);
    metrics.applied(events.size());
    return events.size();
  }

  /**
   * Their history committed, the records of triggers that ended in SUCCESS give way to tombstones
   * ({@link EndedCompaction}), pipelined with the acknowledgements. A failed compaction costs only
   * memory: the record stays until it expires.
   */
  private void compactSucceeded(List<SyncEvent> events, List<CompletableFuture<?>> writes) {
    Map<Integer, List<EndedCompaction.Ended>> byShard = new HashMap<>();
    for (SyncEvent event : events) {
      if (event instanceof SyncEvent.TriggerChange t
          && "SUCCESS".equals(t.state())
          && t.fireMs() != null) {
        byShard
            .computeIfAbsent(t.shard(), s -> new ArrayList<>())
            .add(new EndedCompaction.Ended(t.triggerId(), t.fireMs()));
      }
    }
    byShard.forEach(
        (shard, ended) -> {
          for (CompletionStage<Long> call : compaction.compact(shard, ended)) {
            writes.add(
                call.toCompletableFuture()
                    .handle(
                        (compacted, failure) -> {
                          if (failure != null) {
                            metrics.loopError();
                            log.warn(
                                "shard {}: compacting {} synced triggers failed ({}); their records"
                                    + " stay until they expire",
                                shard,
                                ended.size(),
                                failure.toString());
                          } else {
                            metrics.compacted(compacted);
                          }
                          return null;
                        }));
          }
        });
  }

  private void awaitAll(List<CompletableFuture<?>> writes) {
    try {
      CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new))
          .get(redis.timeout().toMillis() * 2, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosException("interrupted acknowledging synced entries", e);
    } catch (ExecutionException | TimeoutException e) {
      // Unacknowledged entries stay pending to this consumer and are applied again (idempotent).
      java.util.Arrays.fill(readOwnPending, true);
      throw new KairosException("acknowledging synced entries failed: " + e, e);
    }
  }

  /** Entries per shard of a read over all shards: together at most a round's worth. */
  private int allShardsCount() {
    return Math.max(1, Math.min(settings.batchSize(), config.maxEventsPerRound() / shards));
  }

  /**
   * Every shard's entries with one XREADGROUP (one Redis server only: in a Redis Cluster the
   * streams live in different slots). A shard read in the round and not reached by it (the round
   * filled up first) stays pending to this consumer and is read again from its start.
   */
  @SuppressWarnings("unchecked")
  private List<List<StreamMessage<String, String>>> readAllShards() {
    XReadArgs.StreamOffset<String>[] offsets = new XReadArgs.StreamOffset[shards];
    for (int s = 0; s < shards; s++) {
      offsets[s] = XReadArgs.StreamOffset.from(RedisKeys.events(s), readOwnPending[s] ? "0" : ">");
    }
    List<List<StreamMessage<String, String>>> perShard = new ArrayList<>(shards);
    for (int s = 0; s < shards; s++) {
      perShard.add(new ArrayList<>());
    }
    List<StreamMessage<String, String>> all;
    try {
      all = redis.sync().xreadgroup(me, XReadArgs.Builder.count(allShardsCount()), offsets);
    } catch (RuntimeException e) {
      if (StreamGroups.isNoGroup(e)) {
        log.warn("consumer group {} missing on some shard; recreating them", settings.group());
        for (int s = 0; s < shards; s++) {
          groups.ensure(s);
        }
        return perShard;
      }
      throw e;
    }
    for (StreamMessage<String, String> m : all) {
      perShard.get(shardOfStream(m.getStream())).add(m);
    }
    for (int s = 0; s < shards; s++) {
      if (readOwnPending[s] && perShard.get(s).isEmpty()) {
        readOwnPending[s] = false;
      }
    }
    return perShard;
  }

  private static int shardOfStream(String stream) {
    // kairos:{<shard>}:events
    return Integer.parseInt(stream.substring(stream.indexOf('{') + 1, stream.indexOf('}')));
  }

  private List<StreamMessage<String, String>> read(int shard) {
    boolean own = readOwnPending[shard];
    try {
      List<StreamMessage<String, String>> messages =
          redis
              .sync()
              .xreadgroup(
                  me,
                  XReadArgs.Builder.count(settings.batchSize()),
                  XReadArgs.StreamOffset.from(RedisKeys.events(shard), own ? "0" : ">"));
      if (own && messages.isEmpty()) {
        readOwnPending[shard] = false;
      }
      return messages;
    } catch (RuntimeException e) {
      if (StreamGroups.isNoGroup(e)) {
        // The stream was flushed (e.g. a master lost its data): recreate the group and move on.
        log.warn("shard {}: consumer group {} missing; recreating it", shard, settings.group());
        groups.ensure(shard);
        return List.of();
      }
      throw e;
    }
  }

  private void trimAll() {
    long removed = 0;
    for (int s = 0; s < shards; s++) {
      removed += groups.trim(s);
    }
    if (removed > 0) {
      metrics.trimmed(removed);
    }
  }
}
