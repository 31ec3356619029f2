package dev.kairos.protocol.adhoc;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.redis.JobFields;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.JobDisabledException;
import dev.kairos.core.store.JobNotFoundException;
import dev.kairos.core.time.KairosClock;
import dev.kairos.core.validation.JobValidationException;
import dev.kairos.core.validation.ValidationProblem;
import io.lettuce.core.ScriptOutputType;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletionStage;

/**
 * Triggers that do not come from a job's schedule: "trigger now" (optionally with other
 * parameters), retries and child-job triggers.
 *
 * <p>A submission writes the request and an entry in the shard's ad-hoc ZSET ({@link
 * RedisKeys#adhoc}, score = due time), idempotently by trigger id, in one script ({@code
 * submit_adhoc.lua}). The leader's scan claims due entries into node wheels with the scheduled
 * fires of the same shard, in the same fenced {@code claim_fires.lua} call, so an ad-hoc trigger is
 * claimed once, survives node crashes like any fire, and is published by the node's fire path with
 * its own attempt number and parameters. At fire time it is dropped when its job is gone or
 * disabled; unlike a scheduled fire it is not dropped when the job's schedule changed.
 *
 * <p>Thread-safe; holds no resources of its own.
 */
public final class AdhocTriggers {

  private static final SecureRandom NONCES = new SecureRandom();

  private final KairosRedis redis;
  private final RedisKeys keys;
  private final KairosClock clock;
  private final LuaScript submit;

  public AdhocTriggers(KairosRedis redis, RedisKeys keys, KairosClock clock) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.keys = Objects.requireNonNull(keys, "keys");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.submit = LuaScript.load(AdhocTriggers.class, "submit_adhoc");
  }

  /**
   * "Trigger now": a manual trigger of {@code jobId}, due now, with a fresh id {@code
   * <jobId>:<now>:m<nonce>}.
   *
   * @param paramsOverride parameters for this run instead of the job's, if present
   * @return the new trigger's id
   * @throws JobNotFoundException when there is no such job; nothing written
   * @throws JobDisabledException when the job is disabled; nothing written
   * @throws JobValidationException (field {@code params}) when the override is too large
   */
  public TriggerId triggerNow(String jobId, Optional<String> paramsOverride) {
    return triggerNow(jobId, paramsOverride, OptionalInt.empty());
  }

  /**
   * "Trigger now" on a chosen executor slot: as {@link #triggerNow(String, Optional)}, and the node
   * sends it to {@code slot}'s queue while that slot has a live lease hosting the handler (whatever
   * the job's routing); without one it waits and ends like any fire that finds no executor.
   *
   * @param slot the slot, 0..{@link AdhocRequest#MAX_SLOT}; empty: the job's routing decides
   */
  public TriggerId triggerNow(String jobId, Optional<String> paramsOverride, OptionalInt slot) {
    byte[] nonce = new byte[6];
    NONCES.nextBytes(nonce);
    return triggerNow(jobId, HexFormat.of().formatHex(nonce), paramsOverride, slot);
  }

  /**
   * "Trigger now" with a caller-chosen nonce ({@code [A-Za-z0-9]{1,32}}), so a client that retries
   * its request with the same nonce in the same millisecond gets one trigger. Throws as {@link
   * #triggerNow(String, Optional)}.
   */
  public TriggerId triggerNow(String jobId, String nonce, Optional<String> paramsOverride) {
    return triggerNow(jobId, nonce, paramsOverride, OptionalInt.empty());
  }

  /** "Trigger now" with a caller-chosen nonce, on a chosen slot when present. */
  public TriggerId triggerNow(
      String jobId, String nonce, Optional<String> paramsOverride, OptionalInt slot) {
    if (nonce == null || !nonce.matches("[A-Za-z0-9]{1,32}")) {
      throw new IllegalArgumentException("nonce must be 1-32 of [A-Za-z0-9] but was " + nonce);
    }
    paramsOverride.ifPresent(p -> checkParams(jobId, p));
    long now = clock.nowMs();
    AdhocRequest request =
        AdhocRequest.manual(TriggerId.manual(jobId, now, nonce), now, paramsOverride, slot);
    AdhocSubmission done = submit(request);
    return switch (done.outcome()) {
      case JOB_NOT_FOUND -> throw new JobNotFoundException(jobId);
      case JOB_DISABLED -> throw new JobDisabledException(jobId);
      default -> done.triggerId();
    };
  }

  /**
   * Submits an ad-hoc trigger whose id, kind and attempt the caller chose (the lifecycle's retries
   * and child triggers use deterministic ids, so a replayed event submits nothing new).
   */
  public AdhocSubmission submit(AdhocRequest request) {
    List<Object> reply =
        submit.eval(redis.sync(), ScriptOutputType.MULTI, scriptKeys(request), args(request));
    return parse(request, reply);
  }

  /**
   * {@link #submit(AdhocRequest)} without blocking, so a caller can have many in flight on the
   * shared connection (the lifecycle submits a batch of retries and children this way).
   */
  public CompletionStage<AdhocSubmission> submitAsync(AdhocRequest request) {
    return submit
        .<List<Object>>evalAsync(
            redis.async(), ScriptOutputType.MULTI, scriptKeys(request), args(request))
        .thenApply(reply -> parse(request, reply));
  }

  private String[] scriptKeys(AdhocRequest request) {
    int shard = keys.shardOf(request.jobId());
    String id = request.triggerId().value();
    return new String[] {
      RedisKeys.adhoc(shard),
      RedisKeys.adhocRequest(shard, id),
      RedisKeys.trigger(shard, id),
      RedisKeys.job(shard, request.jobId())
    };
  }

  private String[] args(AdhocRequest request) {
    return new String[] {
      request.triggerId().value(),
      request.jobId(),
      Long.toString(request.dueMs()),
      Integer.toString(request.attempt()),
      request.kind().name(),
      Integer.toString(request.depth()),
      Long.toString(clock.nowMs()),
      request.parentTriggerId().map(TriggerId::value).orElse(""),
      request.scheduleVersion().isPresent()
          ? Long.toString(request.scheduleVersion().getAsLong())
          : "",
      request.paramsOverride().isPresent() ? "1" : "0",
      request.paramsOverride().orElse(""),
      request.targetSlot().isPresent() ? Integer.toString(request.targetSlot().getAsInt()) : ""
    };
  }

  private static AdhocSubmission parse(AdhocRequest request, List<Object> reply) {
    String status = (String) reply.get(0);
    return new AdhocSubmission(
        request.triggerId(),
        switch (status) {
          case "OK" -> AdhocSubmission.Outcome.ACCEPTED;
          case "DUPLICATE" -> AdhocSubmission.Outcome.DUPLICATE;
          case "JOB_NOT_FOUND" -> AdhocSubmission.Outcome.JOB_NOT_FOUND;
          case "JOB_DISABLED" -> AdhocSubmission.Outcome.JOB_DISABLED;
          default -> throw new IllegalStateException("submit_adhoc returned " + reply);
        });
  }

  /** Ad-hoc triggers of {@code shard} waiting to be claimed (for operators and tests). */
  public long waiting(int shard) {
    Long n = redis.sync().zcard(RedisKeys.adhoc(shard));
    return n == null ? 0 : n;
  }

  /**
   * When an ad-hoc trigger that has not been claimed yet is due: it has no trigger record until the
   * leader's scan claims it, so this is the only place it can be seen (a cancel asks here to tell
   * "waiting" from "unknown").
   *
   * @return the due time, or empty when {@code triggerId} is not waiting (claimed, or never
   *     submitted)
   */
  public OptionalLong waitingDueMs(TriggerId triggerId) {
    int shard = keys.shardOf(triggerId.jobId());
    Double score = redis.sync().zscore(RedisKeys.adhoc(shard), triggerId.value());
    return score == null ? OptionalLong.empty() : OptionalLong.of(score.longValue());
  }

  /** The shard of a job id, for callers that count per shard. */
  public int shardOf(String jobId) {
    return keys.shardOf(jobId);
  }

  private static void checkParams(String jobId, String params) {
    int bytes = params.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > JobDefinition.MAX_PARAMS_BYTES) {
      throw new JobValidationException(
          jobId,
          List.of(
              new ValidationProblem(
                  JobFields.PARAMS,
                  "override is "
                      + bytes
                      + " bytes; at most "
                      + JobDefinition.MAX_PARAMS_BYTES
                      + " (64 KiB) are allowed")));
    }
  }
}
