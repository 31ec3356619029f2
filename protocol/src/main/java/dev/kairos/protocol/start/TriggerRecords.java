package dev.kairos.protocol.start;

import dev.kairos.core.batch.Coalescer;
import dev.kairos.core.error.KairosException;
import dev.kairos.core.model.TriggerState;
import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.redis.ReplicaWait;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The executor's side of the trigger record ({@code RedisKeys.trigger(shard, triggerId)}): the
 * once-only start claim ({@code claim_start.lua}) and the completion ({@code
 * complete_trigger.lua}). Both run atomically on the trigger's master, judge time by its TIME, and
 * append a TRIGGER_UPDATED event to the trigger's shard's stream. Thread-safe.
 *
 * <p>Claims (and ends) that arrive while earlier ones are in flight go together in one script call
 * ({@link Coalescer}). On one Redis server a call carries triggers of any shards, so a busy
 * executor's claims share calls however the jobs hash; on Redis Cluster a call carries one shard's
 * (a script's keys must share a slot).
 */
public final class TriggerRecords {

  /** Default dedup window D: a trigger starts at most once within D of its fire time. */
  public static final Duration DEFAULT_DEDUP_WINDOW = Duration.ofMinutes(10);

  /** Default approximate bound of a shard's events stream (persistence-sync trims it sooner). */
  public static final long DEFAULT_EVENTS_MAX_LEN = RedisKeys.DEFAULT_EVENTS_MAX_LEN;

  /**
   * Final states an executor may record; LOST, EXPIRED and the rest belong to the scheduler.
   * CANCELLED is recorded by the executor that interrupted a run an operator cancelled.
   */
  public static final Set<TriggerState> EXECUTOR_FINAL_STATES =
      EnumSet.of(
          TriggerState.SUCCESS,
          TriggerState.FAIL,
          TriggerState.TIMEOUT,
          TriggerState.DISCARDED,
          TriggerState.CANCELLED);

  /** Most claims or ends in one script call: bounds the time one call holds Redis. */
  static final int MAX_GROUP = 128;

  /**
   * Calls in flight at once per lane (claims and ends counted apart): one lane on one server, one
   * per shard on Redis Cluster.
   */
  static final int CALLS_PER_LANE = 2;

  /** The one lane of a single server: its calls may carry every shard. */
  private static final int ALL_SHARDS = -1;

  private final KairosRedis redis;
  private final RedisKeys keys;
  private final Duration dedupWindow;
  private final long eventsMaxLen;
  private final LuaScript claimStart = LuaScript.load(TriggerRecords.class, "claim_start");
  private final LuaScript completeTrigger =
      LuaScript.load(TriggerRecords.class, "complete_trigger");
  private final Coalescer<Integer, StartRequest, StartOutcome> claims =
      new Coalescer<>(this::claimGroup, MAX_GROUP, CALLS_PER_LANE);
  private final Coalescer<Integer, End, CompletionOutcome> ends =
      new Coalescer<>(this::endGroup, MAX_GROUP, CALLS_PER_LANE);

  public TriggerRecords(
      KairosRedis redis, RedisKeys keys, Duration dedupWindow, long eventsMaxLen) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.keys = Objects.requireNonNull(keys, "keys");
    if (dedupWindow.isNegative() || dedupWindow.isZero()) {
      throw new IllegalArgumentException("the dedup window must be positive: " + dedupWindow);
    }
    if (eventsMaxLen < 1) {
      throw new IllegalArgumentException("eventsMaxLen must be >= 1 but was " + eventsMaxLen);
    }
    this.dedupWindow = dedupWindow;
    this.eventsMaxLen = eventsMaxLen;
  }

  /**
   * Reads the shard count from field {@code shards} of {@link RedisKeys#META}, fixed when the
   * cluster was initialised; fails when the cluster has not been initialised yet.
   */
  public static TriggerRecords connect(KairosRedis redis, Duration dedupWindow) {
    String shards = redis.sync().hget(RedisKeys.META, "shards");
    if (shards == null) {
      throw new KairosException(
          "Kairos is not initialised in this Redis: " + RedisKeys.META + " has no field shards");
    }
    ClusterMetadata.agreeOnDedupWindow(redis, dedupWindow, "kairos.executor.dedup-window");
    return new TriggerRecords(
        redis, new RedisKeys(Integer.parseInt(shards)), dedupWindow, DEFAULT_EVENTS_MAX_LEN);
  }

  public Duration dedupWindow() {
    return dedupWindow;
  }

  /** The key layout (shard count) read at connect. */
  public RedisKeys keys() {
    return keys;
  }

  /** Approximate bound of a shard's events stream that this executor's scripts apply. */
  public long eventsMaxLen() {
    return eventsMaxLen;
  }

  /** Claims the start of a trigger; call as the handler is about to run, never on receipt. */
  public StartOutcome claimStart(StartRequest request) {
    return await(claimStartAsync(request), "start claim of " + request.triggerId());
  }

  /**
   * The trigger's recorded state and executor (empty strings for a missing record or field): how an
   * executor whose claim reply was lost learns whether its claim committed.
   */
  public String[] stateAndExecutor(String triggerId, String jobId) {
    var values =
        redis.sync().hmget(RedisKeys.trigger(keys.shardOf(jobId), triggerId), "state", "executor");
    return new String[] {values.get(0).getValueOrElse(""), values.get(1).getValueOrElse("")};
  }

  /**
   * {@link #claimStart} without blocking the caller. Claims that arrive while earlier ones of their
   * lane are in flight go together in one script call ({@link Coalescer}).
   */
  public CompletionStage<StartOutcome> claimStartAsync(StartRequest request) {
    return claims.submit(lane(request.jobId()), request);
  }

  private int lane(String jobId) {
    return redis.isCluster() ? keys.shardOf(jobId) : ALL_SHARDS;
  }

  private CompletionStage<List<StartOutcome>> claimGroup(int lane, List<StartRequest> group) {
    ShardedCall<StartRequest> call =
        ShardedCall.of(
            group,
            request -> keys.shardOf(request.jobId()),
            shard ->
                List.of(
                    RedisKeys.triggerPrefix(shard),
                    RedisKeys.jobPrefix(shard),
                    RedisKeys.endedPrefix(shard)),
            (request, args) -> {
              args.add(request.triggerId());
              args.add(request.jobId());
              args.add(Long.toString(request.scheduledFireMs()));
              args.add(request.executorId());
              args.add(Integer.toString(request.slot()));
              args.add(Integer.toString(request.attempt()));
              args.add(Long.toString(request.timeoutMs()));
              args.add(Long.toString(request.sentMs()));
            },
            Long.toString(dedupWindow.toMillis()),
            Long.toString(eventsMaxLen),
            Long.toString(RedisKeys.ENDED_BUCKET_MS));
    return call.run(claimStart, redis, TriggerRecords::startOutcome)
        .thenCompose(outcomes -> replicated(call.firstShard(), outcomes));
  }

  /**
   * One WAIT per start-claim call (kairos.redis.wait-replicas), before any handler of the group
   * runs: a start claim a failover undid would let a re-sent copy start a second time. A shortfall
   * proceeds ({@link ReplicaWait}); a failed WAIT fails the claims as a lost reply would, so the
   * executor claims again on whichever master then serves the shard and reads back whose claim
   * stands (its own earlier try: the handler runs once).
   */
  private CompletionStage<List<StartOutcome>> replicated(int shard, List<StartOutcome> outcomes) {
    // On one server every shard has the same master: any shard's key routes the WAIT there.
    if (!redis.replicaWait().policy().enabled()
        || outcomes.stream().noneMatch(StartOutcome::started)) {
      return CompletableFuture.completedFuture(outcomes);
    }
    return redis
        .replicaWait()
        .afterWrite(RedisKeys.events(shard))
        .thenApply(
            ack -> {
              if (ack == ReplicaWait.Ack.FAILED) {
                throw new KairosException(
                    "WAIT after the start claims of shard "
                        + shard
                        + " failed: the master may be gone with them; claim again");
              }
              return outcomes;
            });
  }

  private static StartOutcome startOutcome(List<Object> reply) {
    return new StartOutcome(
        StartOutcome.Kind.valueOf((String) reply.get(0)),
        (Long) reply.get(1),
        (String) reply.get(2),
        (String) reply.get(3));
  }

  /**
   * Records how a trigger this executor started ended (or that an unstarted one was DISCARDED).
   *
   * @param message the handler's message, already bounded (ResultMessage truncates)
   */
  public CompletionOutcome complete(
      String triggerId,
      String jobId,
      long scheduledFireMs,
      String executorId,
      TriggerState finalState,
      String message) {
    return await(
        completeAsync(triggerId, jobId, scheduledFireMs, executorId, finalState, message),
        "completion of " + triggerId);
  }

  /**
   * {@link #complete} without blocking the caller. Ends that arrive while earlier ones of their
   * lane are in flight go together in one script call (the scheduler's result consumer completes a
   * whole batch of results this way too).
   */
  public CompletionStage<CompletionOutcome> completeAsync(
      String triggerId,
      String jobId,
      long scheduledFireMs,
      String executorId,
      TriggerState finalState,
      String message) {
    if (!EXECUTOR_FINAL_STATES.contains(finalState)) {
      throw new IllegalArgumentException(
          "an executor records only " + EXECUTOR_FINAL_STATES + ", not " + finalState);
    }
    return ends.submit(
        lane(jobId),
        new End(
            triggerId,
            jobId,
            scheduledFireMs,
            executorId,
            finalState,
            message == null ? "" : message));
  }

  /** One end waiting to be recorded. */
  private record End(
      String triggerId,
      String jobId,
      long scheduledFireMs,
      String executorId,
      TriggerState finalState,
      String message) {}

  private CompletionStage<List<CompletionOutcome>> endGroup(int lane, List<End> group) {
    return ShardedCall.of(
            group,
            end -> keys.shardOf(end.jobId()),
            shard -> List.of(RedisKeys.triggerPrefix(shard), RedisKeys.endedPrefix(shard)),
            (end, args) -> {
              args.add(end.triggerId());
              args.add(end.jobId());
              args.add(Long.toString(end.scheduledFireMs()));
              args.add(end.executorId());
              args.add(end.finalState().name());
              args.add(end.message());
            },
            Long.toString(dedupWindow.toMillis()),
            Long.toString(eventsMaxLen),
            Long.toString(RedisKeys.ENDED_BUCKET_MS))
        .run(completeTrigger, redis, TriggerRecords::completionOutcome);
  }

  /**
   * Waits for a call that may queue behind the calls in flight of its lane: up to one command
   * timeout for those and one for its own, plus slack; Lettuce times the commands out first.
   */
  private <T> T await(CompletionStage<T> stage, String what) {
    long boundMs = redis.timeout().toMillis() * 3;
    try {
      return stage.toCompletableFuture().get(boundMs, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosException("interrupted waiting for the " + what, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new KairosException("the " + what + " failed: " + cause, cause);
    } catch (TimeoutException e) {
      throw new KairosException("the " + what + " got no answer within " + boundMs + " ms", e);
    }
  }

  private static CompletionOutcome completionOutcome(List<Object> reply) {
    return new CompletionOutcome(
        CompletionOutcome.Kind.valueOf((String) reply.get(0)),
        (Long) reply.get(1),
        (String) reply.get(2));
  }
}
