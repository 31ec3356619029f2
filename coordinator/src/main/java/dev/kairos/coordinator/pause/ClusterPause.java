package dev.kairos.coordinator.pause;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.KairosClock;
import io.lettuce.core.ScriptOutputType;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster-wide pause flag: fields {@code paused}, {@code pausedMs}, {@code pausedBy} of {@link
 * RedisKeys#META}. Any node may set or clear it (an operator request); the leader's scan loop reads
 * it before every pass and claims nothing while it is set. One key, so every change is atomic and
 * every node sees the same answer. Thread-safe.
 */
public final class ClusterPause {

  private static final Logger log = LoggerFactory.getLogger(ClusterPause.class);
  private static final LuaScript SET_PAUSE = LuaScript.load(ClusterPause.class, "set_pause");

  private final KairosRedis redis;
  private final KairosClock clock;

  public ClusterPause(KairosRedis redis, KairosClock clock) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Reads the flag: one HMGET on the metadata hash. */
  public PauseState state() {
    List<String> fields =
        redis.sync().hmget(RedisKeys.META, "paused", "pausedMs", "pausedBy").stream()
            .map(kv -> kv.getValueOrElse(null))
            .toList();
    if (!"1".equals(fields.get(0))) {
      return PauseState.RUNNING;
    }
    long since = fields.get(1) == null ? 0 : Long.parseLong(fields.get(1));
    return new PauseState(true, since, fields.get(2));
  }

  /** Whether scheduling is paused now; read by the scan loop once per pass. */
  public boolean isPaused() {
    return "1".equals(redis.sync().hget(RedisKeys.META, "paused"));
  }

  /**
   * Pauses all scheduling; pausing a paused cluster keeps the original time and author.
   *
   * @param by who asks, shown to operators
   */
  public PauseState pause(String by) {
    PauseState state = set("pause", by);
    log.warn("scheduling paused cluster-wide by {} at {}", state.by(), state.sinceMs());
    return state;
  }

  /** Resumes scheduling; resuming a running cluster changes nothing. */
  public PauseState resume(String by) {
    PauseState state = set("resume", by);
    log.warn("scheduling resumed cluster-wide by {}", by);
    return state;
  }

  private PauseState set(String verb, String by) {
    Objects.requireNonNull(by, "by");
    List<Object> reply =
        SET_PAUSE.eval(
            redis.sync(),
            ScriptOutputType.MULTI,
            new String[] {RedisKeys.META},
            verb,
            Long.toString(clock.nowMs()),
            by);
    if ((Long) reply.get(1) == 0L) {
      return PauseState.RUNNING;
    }
    return new PauseState(true, (Long) reply.get(2), (String) reply.get(3));
  }
}
