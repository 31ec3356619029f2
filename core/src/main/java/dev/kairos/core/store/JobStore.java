package dev.kairos.core.store;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.JobHash;
import dev.kairos.core.redis.JobFields;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.schedule.Schedules;
import dev.kairos.core.secret.SecretParamsCipher;
import dev.kairos.core.time.KairosClock;
import dev.kairos.core.validation.JobValidator;
import io.lettuce.core.ScriptOutputType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Write-through storage of job definitions in Redis, the source of truth.
 *
 * <p>Every write is one Lua script call on the job's shard that updates the job hash, the shard's
 * due ZSET, its job indexes ({@link RedisKeys#jobIds}, {@link RedisKeys#appJobIds}; read by {@link
 * JobIndex}) and its events stream together, so the scanner, the wheels, the lists and
 * persistence-sync never see one without the others. First fire times are computed here, from the
 * injected cluster clock: cron and fixed rate at their next time after now, FIXED_DELAY one
 * interval after now, a one-shot at its instant. API-only and disabled jobs are not in the due
 * ZSET. Input is validated before anything is written, and so are child job lists: a save that
 * would close a cycle of child jobs through the stored jobs is rejected ({@link ChildCycleCheck};
 * the race of two concurrent saves is bounded at trigger time by the child chain depth).
 *
 * <p>Thread-safe; holds no resources of its own (the {@link KairosRedis} belongs to the caller).
 */
public final class JobStore {

  /** Approximate bound of each shard's events stream; persistence-sync trims far below it. */
  public static final long DEFAULT_EVENTS_MAX_LEN = RedisKeys.DEFAULT_EVENTS_MAX_LEN;

  /** Enabling races a schedule change at most this often before giving up. */
  private static final int MAX_ENABLE_ATTEMPTS = 5;

  private static final long TIMEOUT_SECONDS = 30;

  private final KairosRedis redis;
  private final RedisKeys keys;
  private final KairosClock clock;
  private final JobValidator validator;
  private final ChildCycleCheck cycles;
  private final String eventsMaxLen;
  private final SecretParamsCipher secretParams;
  private final LuaScript createJob;
  private final LuaScript updateJob;
  private final LuaScript setJobEnabled;
  private final LuaScript deleteJob;

  public JobStore(KairosRedis redis, RedisKeys keys, KairosClock clock) {
    this(redis, keys, clock, DEFAULT_EVENTS_MAX_LEN);
  }

  public JobStore(KairosRedis redis, RedisKeys keys, KairosClock clock, long eventsMaxLen) {
    this(redis, keys, clock, eventsMaxLen, SecretParamsCipher.none());
  }

  /**
   * A store that seals the secret fields of params with {@code secretParams} on every write, so
   * Redis, PostgreSQL, the history and the audit hold them sealed; executors open them for the run.
   */
  public JobStore(
      KairosRedis redis,
      RedisKeys keys,
      KairosClock clock,
      long eventsMaxLen,
      SecretParamsCipher secretParams) {
    this.secretParams = Objects.requireNonNull(secretParams, "secretParams");
    this.redis = Objects.requireNonNull(redis, "redis");
    this.keys = Objects.requireNonNull(keys, "keys");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (eventsMaxLen < 1) {
      throw new IllegalArgumentException("eventsMaxLen must be >= 1 but was " + eventsMaxLen);
    }
    this.validator = new JobValidator();
    this.cycles = new ChildCycleCheck(redis, keys);
    this.eventsMaxLen = Long.toString(eventsMaxLen);
    this.createJob = LuaScript.load(JobStore.class, "create_job");
    this.updateJob = LuaScript.load(JobStore.class, "update_job");
    this.setJobEnabled = LuaScript.load(JobStore.class, "set_job_enabled");
    this.deleteJob = LuaScript.load(JobStore.class, "delete_job");
  }

  public RedisKeys keys() {
    return keys;
  }

  /** How this store seals params: what an import compares and a writer's read opens with. */
  public SecretParamsCipher secretParams() {
    return secretParams;
  }

  /** {@code job} with its params as this store would write them (secrets sealed). */
  public JobDefinition sealed(JobDefinition job) {
    String sealed = secretParams.seal(job.id(), job.params());
    return sealed == job.params() ? job : job.toBuilder().params(sealed).build();
  }

  /**
   * Stores a new job at version 1, schedule version 1, created and updated now. The versions and
   * timestamps of {@code job} are ignored.
   *
   * @return the job as stored
   * @throws dev.kairos.core.validation.JobValidationException with every problem, or the child
   *     cycle the job would close; nothing written
   * @throws JobAlreadyExistsException when the id is taken; nothing written
   */
  public JobDefinition create(JobDefinition job) {
    return await(createAsync(job), job.id());
  }

  /**
   * {@link #create} without waiting for Redis: validation and the child-cycle check run now (and
   * throw now); the script is sent at once, so creates issued together share the connection's
   * pipeline (an import of a thousand jobs is one round of scripts, not a thousand round trips).
   * The future fails with {@link JobAlreadyExistsException} when the id is taken.
   */
  public CompletableFuture<JobDefinition> createAsync(JobDefinition job) {
    long now = clock.nowMs();
    JobDefinition unsealed =
        job.toBuilder().version(1).scheduleVersion(1).createdMs(now).updatedMs(now).build();
    validator.check(unsealed);
    JobDefinition stored = sealed(unsealed);
    // A stored job may already name this id as a child (unknown ids are allowed).
    cycles.check(stored.id(), stored.childJobIds());
    int shard = keys.shardOf(stored.id());
    List<String> args = new ArrayList<>();
    args.add(stored.id());
    args.add(stored.enabled() ? firstFire(stored, now) : "");
    args.add(eventsMaxLen);
    args.add(Long.toString(now));
    JobHash.toHash(stored)
        .forEach(
            (field, value) -> {
              args.add(field);
              args.add(value);
            });
    return createJob
        .<List<Object>>evalAsync(
            redis.async(),
            ScriptOutputType.MULTI,
            new String[] {
              RedisKeys.job(shard, stored.id()),
              RedisKeys.due(shard),
              RedisKeys.events(shard),
              RedisKeys.jobIds(shard),
              RedisKeys.enabledApps(shard),
              RedisKeys.appJobIds(shard)
            },
            args.toArray(String[]::new))
        .thenApply(
            reply -> {
              if (status(reply).equals("EXISTS")) {
                throw new JobAlreadyExistsException(stored.id());
              }
              return fromReply(stored.id(), reply);
            })
        .toCompletableFuture();
  }

  /**
   * Replaces the user-defined fields of a job if it is still at {@code expectedVersion}. Its
   * creation time (the fixed-rate anchor) and versions are kept from the stored job; the version
   * goes up by one and the schedule version when the schedule type, spec, zone or cron dialect
   * changed or the job was disabled by this update. A changed schedule is re-armed from now; a
   * params-only change leaves the due ZSET untouched.
   *
   * @return the job as stored
   * @throws dev.kairos.core.validation.JobValidationException with every problem, or the child
   *     cycle the update would close; nothing written
   * @throws JobNotFoundException when there is no such job
   * @throws JobVersionConflictException when the stored version differs; nothing written
   */
  public JobDefinition update(JobDefinition job, long expectedVersion) {
    validator.check(job);
    cycles.check(job.id(), job.childJobIds());
    JobDefinition current = get(job.id()).orElseThrow(() -> new JobNotFoundException(job.id()));
    if (current.version() != expectedVersion) {
      throw new JobVersionConflictException(job.id(), expectedVersion, current.version());
    }
    long now = clock.nowMs();
    JobDefinition next =
        sealed(job).toBuilder()
            .createdMs(current.createdMs())
            .updatedMs(now)
            .version(current.version())
            .scheduleVersion(current.scheduleVersion())
            .build();
    int shard = keys.shardOf(job.id());
    List<String> args = new ArrayList<>();
    args.add(job.id());
    args.add(Long.toString(expectedVersion));
    args.add(firstFire(next, now));
    args.add(eventsMaxLen);
    args.add(Long.toString(now));
    Map<String, String> fields = JobHash.toHash(next);
    // Owned by the store and the script, never replaced by a caller.
    fields.remove(JobFields.ID);
    fields.remove(JobFields.VERSION);
    fields.remove(JobFields.SCHEDULE_VERSION);
    fields.remove(JobFields.CREATED_MS);
    fields.forEach(
        (field, value) -> {
          args.add(field);
          args.add(value);
        });
    List<Object> reply =
        run(
            updateJob,
            new String[] {
              RedisKeys.job(shard, job.id()),
              RedisKeys.due(shard),
              RedisKeys.events(shard),
              RedisKeys.enabledApps(shard),
              RedisKeys.jobIds(shard),
              RedisKeys.appJobIds(shard)
            },
            args);
    return switch (status(reply)) {
      case "NOT_FOUND" -> throw new JobNotFoundException(job.id());
      case "CONFLICT" ->
          throw new JobVersionConflictException(
              job.id(), expectedVersion, Long.parseLong((String) reply.get(1)));
      default -> fromReply(job.id(), reply);
    };
  }

  /**
   * Puts a disabled job back on its schedule, from now; a no-op for an enabled job.
   *
   * @throws JobNotFoundException when there is no such job
   */
  public JobDefinition enable(String jobId) {
    for (int attempt = 1; attempt <= MAX_ENABLE_ATTEMPTS; attempt++) {
      JobDefinition current = get(jobId).orElseThrow(() -> new JobNotFoundException(jobId));
      long now = clock.nowMs();
      List<Object> reply =
          setEnabled(
              jobId, true, firstFire(current, now), Long.toString(current.scheduleVersion()), now);
      if (!status(reply).equals("RETRY")) {
        return fromReply(jobId, reply);
      }
      // The schedule changed between the read and the script: recompute the first fire.
    }
    throw new KairosException(
        "job "
            + jobId
            + " kept changing while being enabled; gave up after "
            + MAX_ENABLE_ATTEMPTS
            + " attempts");
  }

  /**
   * Takes a job off its schedule; fires already claimed for it are dropped if they come due (taken
   * off a wheel, or about to start) while it is disabled. Its schedule version stays, so a claimed
   * fire due after a re-enable runs. A no-op for a disabled job.
   *
   * @throws JobNotFoundException when there is no such job
   */
  public JobDefinition disable(String jobId) {
    return fromReply(jobId, setEnabled(jobId, false, "", "", clock.nowMs()));
  }

  /**
   * {@link #disable} without waiting: disables issued together share the connection's pipeline (a
   * batch of a thousand is one round of scripts). Fails with {@link JobNotFoundException}.
   */
  public CompletableFuture<JobDefinition> disableAsync(String jobId) {
    return setEnabledAsync(jobId, false, "", "", clock.nowMs())
        .thenApply(reply -> fromReply(jobId, reply));
  }

  /**
   * {@link #enable} without waiting: the job is read and its script sent in pipelined rounds; the
   * rare job whose schedule changed in between is enabled again off the Redis thread.
   */
  public CompletableFuture<JobDefinition> enableAsync(String jobId) {
    return redis
        .async()
        .hgetall(RedisKeys.job(keys.shardOf(jobId), jobId))
        .toCompletableFuture()
        .thenCompose(
            hash -> {
              if (hash == null || hash.isEmpty()) {
                throw new JobNotFoundException(jobId);
              }
              JobDefinition current = JobHash.fromHash(hash);
              long now = clock.nowMs();
              return setEnabledAsync(
                  jobId,
                  true,
                  firstFire(current, now),
                  Long.toString(current.scheduleVersion()),
                  now);
            })
        .thenCompose(
            reply ->
                status(reply).equals("RETRY")
                    ? CompletableFuture.supplyAsync(() -> enable(jobId))
                    : CompletableFuture.completedFuture(fromReply(jobId, reply)));
  }

  /** {@link #delete(String)} without waiting; fails with {@link JobNotFoundException}. */
  public CompletableFuture<Void> deleteAsync(String jobId) {
    return deleteScriptAsync(jobId, "").thenAccept(reply -> checkDeleted(jobId, "", reply));
  }

  /**
   * Deletes a job whatever its version.
   *
   * @throws JobNotFoundException when there is no such job
   */
  public void delete(String jobId) {
    delete(jobId, "");
  }

  /**
   * Deletes a job if it is still at {@code expectedVersion}.
   *
   * @throws JobNotFoundException when there is no such job
   * @throws JobVersionConflictException when the stored version differs; nothing written
   */
  public void delete(String jobId, long expectedVersion) {
    delete(jobId, Long.toString(expectedVersion));
  }

  /** Several jobs read with one pipelined round of HGETALLs, in the order of {@code jobIds}. */
  public List<Optional<JobDefinition>> getAll(List<String> jobIds) {
    List<CompletableFuture<Map<String, String>>> reads = new ArrayList<>(jobIds.size());
    for (String id : jobIds) {
      reads.add(redis.async().hgetall(RedisKeys.job(keys.shardOf(id), id)).toCompletableFuture());
    }
    List<Optional<JobDefinition>> jobs = new ArrayList<>(reads.size());
    for (CompletableFuture<Map<String, String>> read : reads) {
      Map<String, String> hash = join(read);
      jobs.add(
          hash == null || hash.isEmpty() ? Optional.empty() : Optional.of(JobHash.fromHash(hash)));
    }
    return jobs;
  }

  public Optional<JobDefinition> get(String jobId) {
    Map<String, String> hash = redis.sync().hgetall(RedisKeys.job(keys.shardOf(jobId), jobId));
    return hash == null || hash.isEmpty() ? Optional.empty() : Optional.of(JobHash.fromHash(hash));
  }

  /** The job's score in its shard's due ZSET: its next fire, +inf when parked, empty if absent. */
  public Optional<Double> dueScore(String jobId) {
    return Optional.ofNullable(redis.sync().zscore(RedisKeys.due(keys.shardOf(jobId)), jobId));
  }

  private void delete(String jobId, String expectedVersion) {
    checkDeleted(jobId, expectedVersion, await(deleteScriptAsync(jobId, expectedVersion), jobId));
  }

  private CompletableFuture<List<Object>> deleteScriptAsync(String jobId, String expectedVersion) {
    int shard = keys.shardOf(jobId);
    return runAsync(
        deleteJob,
        new String[] {
          RedisKeys.job(shard, jobId),
          RedisKeys.due(shard),
          RedisKeys.events(shard),
          RedisKeys.jobIds(shard),
          RedisKeys.enabledApps(shard),
          RedisKeys.appJobIds(shard)
        },
        List.of(jobId, expectedVersion, eventsMaxLen, Long.toString(clock.nowMs())));
  }

  private static void checkDeleted(String jobId, String expectedVersion, List<Object> reply) {
    switch (status(reply)) {
      case "NOT_FOUND" -> throw new JobNotFoundException(jobId);
      case "CONFLICT" ->
          throw new JobVersionConflictException(
              jobId, Long.parseLong(expectedVersion), Long.parseLong((String) reply.get(1)));
      default -> {}
    }
  }

  private List<Object> setEnabled(
      String jobId, boolean enable, String firstFire, String forScheduleVersion, long now) {
    return await(setEnabledAsync(jobId, enable, firstFire, forScheduleVersion, now), jobId);
  }

  private CompletableFuture<List<Object>> setEnabledAsync(
      String jobId, boolean enable, String firstFire, String forScheduleVersion, long now) {
    int shard = keys.shardOf(jobId);
    return runAsync(
            setJobEnabled,
            new String[] {
              RedisKeys.job(shard, jobId),
              RedisKeys.due(shard),
              RedisKeys.events(shard),
              RedisKeys.enabledApps(shard)
            },
            List.of(
                jobId,
                Boolean.toString(enable),
                firstFire,
                forScheduleVersion,
                eventsMaxLen,
                Long.toString(now)))
        .thenApply(
            reply -> {
              if (status(reply).equals("NOT_FOUND")) {
                throw new JobNotFoundException(jobId);
              }
              return reply;
            });
  }

  /** The first fire of the job's schedule set at {@code now}, as a score, or "" for none. */
  private static String firstFire(JobDefinition job, long now) {
    OptionalLong first = Schedules.firstFire(job.schedule(), now);
    return first.isPresent() ? Long.toString(first.getAsLong()) : "";
  }

  private CompletableFuture<List<Object>> runAsync(
      LuaScript script, String[] scriptKeys, List<String> args) {
    return script
        .<List<Object>>evalAsync(
            redis.async(), ScriptOutputType.MULTI, scriptKeys, args.toArray(String[]::new))
        .toCompletableFuture();
  }

  /** Waits for a write; its own exceptions (not found, conflict) are thrown as they are. */
  private static <T> T await(CompletableFuture<T> write, String jobId) {
    try {
      return write.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosException("interrupted while writing job " + jobId, e);
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new KairosException("cannot write job " + jobId + ": " + e.getCause(), e);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new KairosException("writing job " + jobId + " timed out", e);
    }
  }

  private List<Object> run(LuaScript script, String[] scriptKeys, List<String> args) {
    return script.eval(
        redis.sync(), ScriptOutputType.MULTI, scriptKeys, args.toArray(String[]::new));
  }

  private static String status(List<Object> reply) {
    return (String) reply.get(0);
  }

  private static JobDefinition fromReply(String jobId, List<Object> reply) {
    Map<String, String> hash = new LinkedHashMap<>();
    for (int i = 1; i + 1 < reply.size(); i += 2) {
      hash.put((String) reply.get(i), (String) reply.get(i + 1));
    }
    if (hash.isEmpty()) {
      throw new KairosException("job " + jobId + ": script returned no hash: " + reply);
    }
    return JobHash.fromHash(hash);
  }

  private static <T> T join(CompletableFuture<T> future) {
    try {
      return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosException("interrupted while reading jobs", e);
    } catch (Exception e) {
      throw new KairosException("cannot read jobs", e);
    }
  }
}
