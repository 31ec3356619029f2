package dev.kairos.protocol.wheel;

import dev.kairos.core.batch.Coalescer;
import dev.kairos.core.error.KairosException;
import dev.kairos.core.log.LogThrottle;
import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Redis side of ONE node's persisted wheel: reads and moves only that node's own keys ({@code
 * wheel:<node>}, {@code inflight:<node>} in every shard) and the records of its triggers
 * (docs/design.md "Nodes own their keys"). Thread-safe: every call is one script or read on the
 * shared connection.
 */
public final class NodeWheelStore {

  private static final Logger log = LoggerFactory.getLogger(NodeWheelStore.class);

  private static final LuaScript TAKE_DUE = LuaScript.load(NodeWheelStore.class, "take_due");
  private static final LuaScript ACK = LuaScript.load(NodeWheelStore.class, "ack_dispatched");
  private static final LuaScript NO_EXECUTOR =
      LuaScript.load(NodeWheelStore.class, "record_no_executor");

  /** Most acks in one script call: bounds the time one call holds Redis (~5 µs per ack). */
  public static final int MAX_ACK_GROUP = 256;

  /** Ack calls of one shard in flight at once: two keep the pipeline busy while one answers. */
  static final int ACK_CALLS_PER_SHARD = 2;

  private static final LuaScript REQUEUE = LuaScript.load(NodeWheelStore.class, "requeue_inflight");

  private final KairosRedis redis;
  private final RedisKeys keys;
  private final String node;
  private final long eventsMaxLen;
  private final Duration timeout;
  private final Counter staleDrops;

  /** A bulk delete drops a stale entry per claimed fire: one line per 10 s, not one per take. */
  private final LogThrottle staleLines = new LogThrottle(Duration.ofSeconds(10), System::nanoTime);

  private final Counter requeued;
  private final BroadcastShards broadcastShards;
  private final Coalescer<Integer, DispatchAck, Boolean> acks =
      new Coalescer<>(this::ackGroup, MAX_ACK_GROUP, ACK_CALLS_PER_SHARD);

  public NodeWheelStore(
      KairosRedis redis,
      RedisKeys keys,
      String node,
      long eventsMaxLen,
      Duration timeout,
      MeterRegistry meters) {
    this.redis = redis;
    this.keys = keys;
    this.node = node;
    this.eventsMaxLen = eventsMaxLen;
    this.timeout = timeout;
    this.broadcastShards = new BroadcastShards(redis, node);
    this.staleDrops =
        Counter.builder("kairos.wheel.stale.drops")
            .description("wheel entries dropped at take time: job gone, disabled or rescheduled")
            .tag("node", node)
            .register(meters);
    this.requeued =
        Counter.builder("kairos.wheel.inflight.requeued")
            .description("inflight entries put back on the wheel to be re-sent")
            .tag("node", node)
            .register(meters);
  }

  public String node() {
    return node;
  }

  /** The cluster's shard count. */
  public int shards() {
    return keys.shards();
  }

  /** The shard records of this node's SHARDING_BROADCAST triggers. */
  public BroadcastShards broadcastShards() {
    return broadcastShards;
  }

  /**
   * The node's wheel entries due at or before {@code upToMs} in every shard, at most {@code
   * limitPerShard} per shard (the earliest), read in parallel. A node calls it at start and
   * periodically (reconcile), so a lost notification delays nothing.
   */
  public List<WheelEntry> loadWheel(long upToMs, int limitPerShard) {
    List<CompletableFuture<List<ScoredValue<String>>>> reads = new ArrayList<>();
    for (int shard = 0; shard < keys.shards(); shard++) {
      reads.add(
          redis
              .async()
              .zrangebyscoreWithScores(
                  RedisKeys.wheel(shard, node),
                  Range.create(Double.NEGATIVE_INFINITY, (double) upToMs),
                  Limit.create(0, limitPerShard))
              .toCompletableFuture());
    }
    List<WheelEntry> entries = new ArrayList<>();
    for (int shard = 0; shard < reads.size(); shard++) {
      for (ScoredValue<String> value : await(reads.get(shard), "load wheel shard " + shard)) {
        entries.add(new WheelEntry(shard, value.getValue(), (long) value.getScore()));
      }
    }
    return entries;
  }

  /**
   * Moves this node's entries of {@code shard} due at or before {@code upToMs} (at most {@code
   * limit}) from its wheel to its inflight set and returns those still valid, with the job's
   * current dispatch fields. An entry the leader moved away is simply not there: it is not
   * returned, so this node never fires what was reassigned.
   */
  public TakeResult takeDue(int shard, long upToMs, int limit, long nowMs) {
    return await(takeDueAsync(shard, upToMs, limit, nowMs), "take due in shard " + shard);
  }

  public CompletionStage<TakeResult> takeDueAsync(int shard, long upToMs, int limit, long nowMs) {
    String[] scriptKeys = {
      RedisKeys.wheel(shard, node),
      RedisKeys.inflight(shard, node),
      RedisKeys.events(shard),
      RedisKeys.openTriggers(shard)
    };
    return TAKE_DUE
        .<List<Object>>evalAsync(
            redis.async(),
            ScriptOutputType.MULTI,
            scriptKeys,
            Long.toString(upToMs),
            Integer.toString(limit),
            Long.toString(nowMs),
            RedisKeys.jobPrefix(shard),
            RedisKeys.triggerPrefix(shard),
            Long.toString(eventsMaxLen),
            RedisKeys.endedPrefix(shard),
            Long.toString(RedisKeys.ENDED_BUCKET_MS))
        .thenApply(reply -> parseTake(shard, reply));
  }

  private TakeResult parseTake(int shard, List<Object> reply) {
    int stale = ((Long) reply.get(0)).intValue();
    int started = ((Long) reply.get(1)).intValue();
    List<DueTrigger> due = new ArrayList<>(reply.size() - 2);
    for (int i = 2; i < reply.size(); i++) {
      @SuppressWarnings("unchecked")
      List<Object> e = (List<Object>) reply.get(i);
      due.add(
          new DueTrigger(
              shard,
              (String) e.get(0),
              (String) e.get(1),
              Long.parseLong((String) e.get(2)),
              (String) e.get(3),
              (String) e.get(4),
              (String) e.get(5),
              parseEnum(RoutingStrategy.class, (String) e.get(6), RoutingStrategy.FIRST),
              parseEnum(BlockStrategy.class, (String) e.get(7), BlockStrategy.SERIAL_EXECUTION),
              ((String) e.get(8)).isEmpty() ? 0 : Long.parseLong((String) e.get(8)),
              Integer.parseInt((String) e.get(9)),
              targetSlot(e)));
    }
    if (stale > 0) {
      staleDrops.increment(stale);
      long dropped = staleLines.record(stale);
      if (dropped > 0) {
        log.info(
            "node={} dropped {} stale wheel entries since the last such line (their jobs were"
                + " deleted, disabled or rescheduled after the fires were claimed)",
            node,
            dropped);
      }
    }
    return new TakeResult(due, stale, started);
  }

  /** The slot a "trigger now" asked for (take_due's 11th element), or none. */
  private static int targetSlot(List<Object> entry) {
    if (entry.size() < 11 || ((String) entry.get(10)).isEmpty()) {
      return DueTrigger.NO_TARGET_SLOT;
    }
    try {
      return Integer.parseInt((String) entry.get(10));
    } catch (NumberFormatException e) {
      return DueTrigger.NO_TARGET_SLOT;
    }
  }

  /**
   * The broker acknowledged the trigger's message: the entry leaves inflight and the trigger
   * becomes DISPATCHED (never regressing a later state).
   *
   * @return false when the entry was not in this node's inflight set (the leader moved it away)
   */
  public boolean ackDispatched(int shard, String triggerId, String slot, long nowMs) {
    return await(ackDispatchedAsync(shard, triggerId, slot, nowMs), "ack trigger " + triggerId);
  }

  /**
   * {@link #ackDispatched} without blocking. Acks of one shard that arrive while earlier ones of
   * that shard are in flight go together in one script call (see {@link Coalescer}): under load one
   * round trip and one script acknowledge many fires, at low load an ack goes at once.
   */
  public CompletionStage<Boolean> ackDispatchedAsync(
      int shard, String triggerId, String slot, long nowMs) {
    return acks.submit(shard, new DispatchAck(triggerId, slot, nowMs));
  }

  /**
   * Records a group of broker acknowledgements of one shard with one script call, at once (the
   * caller grouped them). Answers, per ack in order, whether the entry was in this node's inflight
   * set (false: the leader moved it to another node).
   */
  public CompletionStage<List<Boolean>> ackDispatchedGroupAsync(
      int shard, List<DispatchAck> group) {
    if (group.size() <= MAX_ACK_GROUP) {
      return ackGroup(shard, group);
    }
    List<CompletableFuture<List<Boolean>>> parts = new ArrayList<>();
    for (int from = 0; from < group.size(); from += MAX_ACK_GROUP) {
      parts.add(
          ackGroup(shard, group.subList(from, Math.min(group.size(), from + MAX_ACK_GROUP)))
              .toCompletableFuture());
    }
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
        .thenApply(
            done -> {
              List<Boolean> all = new ArrayList<>(group.size());
              parts.forEach(p -> all.addAll(p.join()));
              return all;
            });
  }

  /**
   * One broker acknowledgement to record.
   *
   * @param slot the executor slot the message was routed to ("" when not known)
   * @param ackedMs cluster time the broker acknowledged it: the record's dispatchedMs
   */
  public record DispatchAck(String triggerId, String slot, long ackedMs) {}

  private CompletionStage<List<Boolean>> ackGroup(int shard, List<DispatchAck> group) {
    String[] scriptKeys = {RedisKeys.inflight(shard, node), RedisKeys.openTriggers(shard)};
    long now = 0;
    String[] args = new String[2 + 3 * group.size()];
    for (int i = 0; i < group.size(); i++) {
      DispatchAck ack = group.get(i);
      now = Math.max(now, ack.ackedMs());
      args[2 + 3 * i] = ack.triggerId();
      args[3 + 3 * i] = ack.slot();
      args[4 + 3 * i] = Long.toString(ack.ackedMs());
    }
    args[0] = Long.toString(now);
    args[1] = RedisKeys.triggerPrefix(shard);
    return ACK.<List<Long>>evalAsync(redis.async(), ScriptOutputType.MULTI, scriptKeys, args)
        .thenApply(removed -> removed.stream().map(r -> r == 1L).toList());
  }

  /**
   * No executor is live for the trigger's app or handler: the trigger ends as NO_EXECUTOR (and a
   * parked FIXED_DELAY job is re-armed at now + delay).
   *
   * @return false when the entry was not in this node's inflight set (nothing written)
   */
  public boolean recordNoExecutor(
      int shard, String triggerId, String jobId, String message, long nowMs) {
    return await(
        recordNoExecutorAsync(shard, triggerId, jobId, message, nowMs),
        "record NO_EXECUTOR of " + triggerId);
  }

  /** {@link #recordNoExecutor} without blocking (pipelined with concurrent calls). */
  public CompletionStage<Boolean> recordNoExecutorAsync(
      int shard, String triggerId, String jobId, String message, long nowMs) {
    String[] scriptKeys = {
      RedisKeys.inflight(shard, node),
      RedisKeys.trigger(shard, triggerId),
      RedisKeys.events(shard),
      RedisKeys.due(shard),
      RedisKeys.job(shard, jobId),
      RedisKeys.openTriggers(shard)
    };
    return NO_EXECUTOR
        .<Long>evalAsync(
            redis.async(),
            ScriptOutputType.INTEGER,
            scriptKeys,
            triggerId,
            jobId,
            Long.toString(nowMs),
            message,
            Long.toString(eventsMaxLen))
        .thenApply(removed -> removed == 1L);
  }

  /**
   * The inflight sweeper: entries taken off the wheel at or before {@code olderThanMs} whose send
   * never completed go back on this node's wheel (same trigger id, original fire time, so they are
   * due at once), at most {@code limitPerShard} per shard.
   *
   * @return the requeued entries, for the node to put back on its in-memory wheel
   */
  public List<WheelEntry> requeueInflight(long olderThanMs, int limitPerShard) {
    List<CompletableFuture<List<Object>>> calls = new ArrayList<>();
    for (int shard = 0; shard < keys.shards(); shard++) {
      calls.add(
          REQUEUE
              .<List<Object>>evalAsync(
                  redis.async(),
                  ScriptOutputType.MULTI,
                  new String[] {RedisKeys.inflight(shard, node), RedisKeys.wheel(shard, node)},
                  Long.toString(olderThanMs),
                  Integer.toString(limitPerShard))
              .toCompletableFuture());
    }
    List<WheelEntry> entries = new ArrayList<>();
    for (int shard = 0; shard < calls.size(); shard++) {
      List<Object> reply = await(calls.get(shard), "requeue inflight shard " + shard);
      for (int i = 0; i + 1 < reply.size(); i += 2) {
        entries.add(
            new WheelEntry(
                shard, (String) reply.get(i), Long.parseLong((String) reply.get(i + 1))));
      }
    }
    if (!entries.isEmpty()) {
      requeued.increment(entries.size());
      log.warn("node={} requeued {} inflight entries to re-send", node, entries.size());
    }
    return entries;
  }

  private static <E extends Enum<E>> E parseEnum(Class<E> type, String value, E fallback) {
    return value.isEmpty() ? fallback : Enum.valueOf(type, value);
  }

  private <T> T await(CompletionStage<T> call, String what) {
    try {
      return call.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosException("node " + node + ": interrupted: " + what, e);
    } catch (ExecutionException | TimeoutException e) {
      throw new KairosException("node " + node + ": cannot " + what, e);
    }
  }
}
