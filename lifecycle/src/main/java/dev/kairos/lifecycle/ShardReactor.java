package dev.kairos.lifecycle;

import dev.kairos.core.alarm.Alarm;
import dev.kairos.core.alarm.AlarmSink;
import dev.kairos.core.error.KairosException;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.JobHash;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.KairosClock;
import dev.kairos.protocol.adhoc.AdhocRequest;
import dev.kairos.protocol.adhoc.AdhocSubmission;
import dev.kairos.protocol.adhoc.AdhocTriggers;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Reacts to one shard's batch of stream entries: reads the jobs of the final-state events (and the
 * records of an older version's events, which did not carry them) in one pipelined round, decides
 * with {@link LifecyclePolicy}, and writes every retry, child trigger and re-arm in a second
 * pipelined round (all on the batch's shard or the children's shards, one script each). Returns
 * only when every write is durable in Redis, so the caller acknowledges after the reactions; a
 * failure throws and nothing is acknowledged (the entries are read again, and every reaction is
 * idempotent).
 */
final class ShardReactor {

  private static final Logger log = LoggerFactory.getLogger(ShardReactor.class);
  private static final LuaScript REARM = LuaScript.load(ShardReactor.class, "rearm_fixed_delay");

  private final KairosRedis redis;
  private final RedisKeys keys;
  private final AdhocTriggers adhoc;
  private final LifecyclePolicy policy;
  private final AlarmSink alarms;
  private final KairosClock clock;
  private final LifecycleMetrics metrics;
  private final Duration timeout;
  private final ChainEndListener chainEnds;

  ShardReactor(
      KairosRedis redis,
      RedisKeys keys,
      AdhocTriggers adhoc,
      LifecyclePolicy policy,
      AlarmSink alarms,
      KairosClock clock,
      LifecycleMetrics metrics,
      Duration timeout,
      ChainEndListener chainEnds) {
    this.chainEnds = chainEnds;
    this.redis = redis;
    this.keys = keys;
    this.adhoc = adhoc;
    this.policy = policy;
    this.alarms = alarms;
    this.clock = clock;
    this.metrics = metrics;
    this.timeout = timeout;
  }

  /** Reacts to the final-state events among {@code messages}; every entry may be acked after. */
  void react(int shard, List<StreamMessage<String, String>> messages) {
    List<FinalEvent> finals = new ArrayList<>();
    List<ChainEnd> chainEnded = new ArrayList<>();
    for (StreamMessage<String, String> m : messages) {
      Optional<FinalEvent> parsed = FinalEvent.parse(m.getBody());
      if (parsed.isEmpty()) {
        continue;
      }
      Optional<Map<String, String>> quiet = parsed.get().quietRecord();
      if (quiet.isPresent()) {
        // Nothing follows this end; its event carries what the metrics need.
        metrics.finalEvents.increment();
        metrics.quietEnds.increment();
        metrics.recordStart(quiet.get());
        if (chainEnds.accepts(parsed.get().triggerId())) {
          chainEnded.add(new ChainEnd(parsed.get(), quiet.get()));
        }
      } else {
        finals.add(parsed.get());
      }
    }
    if (finals.isEmpty()) {
      tellChainEnds(chainEnded);
      return;
    }
    RedisClusterAsyncCommands<String, String> async = redis.async();
    List<CompletableFuture<Map<String, String>>> records = new ArrayList<>(finals.size());
    List<CompletableFuture<Map<String, String>>> jobs = new ArrayList<>(finals.size());
    for (FinalEvent e : finals) {
      String jobId = e.triggerId().jobId();
      // A TRIGGER_ENDED carries the record; an older version's event needs it read.
      records.add(
          e.carried().isPresent()
              ? CompletableFuture.completedFuture(e.carried().get())
              : async
                  .hgetall(RedisKeys.trigger(shard, e.triggerId().value()))
                  .toCompletableFuture());
      jobs.add(async.hgetall(RedisKeys.job(keys.shardOf(jobId), jobId)).toCompletableFuture());
    }
    long now = clock.nowMs();
    List<Pending> writes = new ArrayList<>();
    List<Alarm> raise = new ArrayList<>();
    for (int i = 0; i < finals.size(); i++) {
      FinalEvent event = finals.get(i);
      Reaction reaction;
      try {
        reaction = policy.decide(event, await(records.get(i)), job(await(jobs.get(i))), now);
      } catch (KairosException e) {
        // A job hash that cannot be read: nothing sensible to do for this one, never block the
        // rest.
        log.warn(
            "jobId={} triggerId={} no lifecycle reaction: {}",
            event.triggerId().jobId(),
            event.triggerId(),
            e.getMessage());
        continue;
      }
      metrics.finalEvents.increment();
      metrics.recordStart(await(records.get(i))); // already read for decide(): no extra call
      reaction.retry().ifPresent(r -> writes.add(submit(event, r, true)));
      reaction.children().forEach(c -> writes.add(submit(event, c, false)));
      reaction.rearm().ifPresent(r -> writes.add(rearm(event, r)));
      reaction.alarm().ifPresent(raise::add);
      if (reaction.retry().isEmpty() && chainEnds.accepts(event.triggerId())) {
        chainEnded.add(new ChainEnd(event, await(records.get(i))));
      }
      if (reaction.skippedChildren() > 0) {
        metrics.childDepthStops.increment(reaction.skippedChildren());
        log.warn(
            "jobId={} triggerId={} child chain reached depth {}; {} child trigger(s) not created"
                + " (a cycle of child jobs?)",
            event.triggerId().jobId(),
            event.triggerId(),
            policy.maxChildDepth(),
            reaction.skippedChildren());
      }
    }
    for (Pending write : writes) {
      write.settle(await(write.future));
    }
    for (Alarm alarm : raise) {
      metrics.retriesExhausted.increment();
      if (alarms.raise(alarm)) {
        metrics.alarms.increment();
      }
    }
    tellChainEnds(chainEnded);
  }

  /**
   * Safety: after the retries and children are durable and before the batch is acknowledged, so a
   * listener failure (it throws) leaves the entries to be read again; listeners are idempotent.
   */
  private void tellChainEnds(List<ChainEnd> ended) {
    for (ChainEnd end : ended) {
      MDC.put("jobId", end.event().triggerId().jobId());
      MDC.put("triggerId", end.event().triggerId().value());
      try {
        chainEnds.chainEnded(
            end.event().triggerId(),
            end.event().state(),
            end.record() == null ? Map.of() : end.record());
      } finally {
        MDC.remove("jobId");
        MDC.remove("triggerId");
      }
    }
  }

  /** A chain's final end and the record its event carried (or Redis held). */
  private record ChainEnd(FinalEvent event, Map<String, String> record) {}

  private Pending submit(FinalEvent event, AdhocRequest request, boolean retry) {
    CompletableFuture<Object> f =
        adhoc.submitAsync(request).toCompletableFuture().thenApply(s -> (Object) s);
    return new Pending(
        f,
        result -> {
          AdhocSubmission s = (AdhocSubmission) result;
          withIds(
              request,
              () -> {
                switch (s.outcome()) {
                  case ACCEPTED -> {
                    (retry ? metrics.retries : metrics.children).increment();
                    log.debug(
                        "{} {} (attempt {}) due at {} after {} ended {}",
                        retry ? "retry" : "child trigger",
                        request.triggerId(),
                        request.attempt(),
                        request.dueMs(),
                        event.triggerId(),
                        event.state());
                  }
                  case DUPLICATE -> metrics.duplicates.increment();
                  case JOB_NOT_FOUND, JOB_DISABLED -> {
                    if (!retry) {
                      metrics.childrenMissing.increment();
                    }
                    log.info(
                        "{} {} not created: {}",
                        retry ? "retry" : "child trigger",
                        request.triggerId(),
                        s.outcome());
                  }
                }
              });
        });
  }

  private Pending rearm(FinalEvent event, Reaction.Rearm r) {
    int shard = keys.shardOf(r.jobId());
    CompletableFuture<Object> f =
        REARM
            .<Long>evalAsync(
                redis.async(),
                ScriptOutputType.INTEGER,
                new String[] {RedisKeys.job(shard, r.jobId()), RedisKeys.due(shard)},
                r.jobId(),
                Long.toString(r.scheduleVersion()),
                Long.toString(r.chainFireMs()),
                Long.toString(r.atMs()))
            .toCompletableFuture()
            .thenApply(n -> (Object) n);
    return new Pending(
        f,
        result -> {
          if (((Long) result) == 1L) {
            metrics.rearms.increment();
            log.info(
                "jobId={} triggerId={} FIXED_DELAY job re-armed at {} after {}",
                r.jobId(),
                event.triggerId(),
                r.atMs(),
                event.state());
          }
        });
  }

  private static void withIds(AdhocRequest request, Runnable logIt) {
    MDC.put("jobId", request.jobId());
    MDC.put("triggerId", request.triggerId().value());
    try {
      logIt.run();
    } finally {
      MDC.remove("jobId");
      MDC.remove("triggerId");
    }
  }

  private static Optional<JobDefinition> job(Map<String, String> hash) {
    return hash == null || hash.isEmpty() ? Optional.empty() : Optional.of(JobHash.fromHash(hash));
  }

  private <T> T await(CompletableFuture<T> future) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosException("interrupted while reacting to trigger events", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new KairosException("lifecycle Redis call failed", e);
    }
  }

  /** A write in flight and what to do with its result. */
  private record Pending(
      CompletableFuture<Object> future, java.util.function.Consumer<Object> settle) {
    void settle(Object result) {
      settle.accept(result);
    }
  }
}
