package dev.kairos.backfill;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The backfills in Redis, all under the hash tag {@code {backfill}} (one slot, so each script is
 * atomic on Redis Cluster): a hash per backfill, the ZSET of RUNNING ones the leader's driver
 * walks, and a ZSET per job of its backfill ids. Each write is one script. Thread-safe.
 */
public final class BackfillStore {

  /** The RUNNING backfills: id → created ms. */
  public static final String ACTIVE = "kairos:{backfill}:active";

  /** How many backfill ids a job's index keeps (the newest). */
  public static final int JOB_INDEX_SIZE = 100;

  private static final LuaScript CREATE = LuaScript.load(BackfillStore.class, "create_backfill");
  private static final LuaScript SAVE =
      LuaScript.load(BackfillStore.class, "save_backfill_progress");
  private static final LuaScript CANCEL = LuaScript.load(BackfillStore.class, "cancel_backfill");

  /** What a save or cancel found. */
  public enum Outcome {
    OK,
    /** No such backfill (never created, or past its retention). */
    GONE,
    /** It is no longer RUNNING: nothing written. */
    FINAL,
    /** Written since it was read (a save only): nothing written. */
    STALE
  }

  private final KairosRedis redis;
  private final Duration retention;

  /**
   * @param retention how long a backfill is kept after it ended (its id answers the same request
   *     with it until then)
   */
  public BackfillStore(KairosRedis redis, Duration retention) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.retention = Objects.requireNonNull(retention, "retention");
  }

  public static String key(String backfillId) {
    return "kairos:{backfill}:b:" + backfillId;
  }

  public static String jobIndex(String jobId) {
    return "kairos:{backfill}:job:" + jobId;
  }

  /** Creates {@code backfill} unless one with its id exists; true when this call created it. */
  public boolean create(Backfill backfill) {
    List<String> args = new ArrayList<>();
    args.add(backfill.id());
    args.add(Long.toString(backfill.createdMs()));
    args.add(Integer.toString(JOB_INDEX_SIZE));
    backfill
        .toHash()
        .forEach(
            (k, v) -> {
              args.add(k);
              args.add(v);
            });
    Long created =
        CREATE.eval(
            redis.sync(),
            ScriptOutputType.INTEGER,
            new String[] {key(backfill.id()), ACTIVE, jobIndex(backfill.jobId())},
            args.toArray(String[]::new));
    return created != null && created == 1L;
  }

  public Optional<Backfill> get(String backfillId) {
    Map<String, String> h = redis.sync().hgetall(key(backfillId));
    return h == null || h.isEmpty() ? Optional.empty() : Optional.of(Backfill.fromHash(h));
  }

  /** The job's backfills still kept, newest first. */
  public List<Backfill> forJob(String jobId) {
    List<Backfill> found = new ArrayList<>();
    for (String id : redis.sync().zrevrange(jobIndex(jobId), 0, JOB_INDEX_SIZE - 1)) {
      get(id).ifPresent(found::add);
    }
    return found;
  }

  /** The ids of the RUNNING backfills, oldest first: one ZRANGE. */
  public List<String> activeIds() {
    return redis.sync().zrange(ACTIVE, 0, -1);
  }

  /** Removes an id without a hash from the active set. */
  void forget(String backfillId) {
    redis.sync().zrem(ACTIVE, backfillId);
  }

  public long activeCount() {
    Long n = redis.sync().zcard(ACTIVE);
    return n == null ? 0 : n;
  }

  /**
   * Saves a driver step of {@code stepped} (read at revision {@code stepped.rev()}) with state
   * {@code state}: {@link Outcome#OK}, or what prevented it.
   */
  public Outcome save(Backfill stepped, BackfillState state, long nowMs) {
    List<String> args = new ArrayList<>();
    args.add(stepped.id());
    args.add(Long.toString(stepped.rev()));
    args.add(state.name());
    args.add(Long.toString(nowMs));
    args.add(Long.toString(retention.toMillis()));
    stepped
        .progress()
        .forEach(
            (k, v) -> {
              args.add(k);
              args.add(v);
            });
    List<Object> reply =
        SAVE.eval(
            redis.sync(),
            ScriptOutputType.MULTI,
            new String[] {key(stepped.id()), ACTIVE},
            args.toArray(String[]::new));
    return Outcome.valueOf((String) reply.get(0));
  }

  /**
   * Cancels a RUNNING backfill: {@link Outcome#OK}, {@link Outcome#GONE} or {@link Outcome#FINAL}.
   */
  public Outcome cancel(String backfillId, long nowMs, String message) {
    List<Object> reply =
        CANCEL.eval(
            redis.sync(),
            ScriptOutputType.MULTI,
            new String[] {key(backfillId), ACTIVE},
            backfillId,
            Long.toString(nowMs),
            Long.toString(retention.toMillis()),
            message);
    return Outcome.valueOf((String) reply.get(0));
  }
}
