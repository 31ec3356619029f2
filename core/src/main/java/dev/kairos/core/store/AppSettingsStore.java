package dev.kairos.core.store;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.KairosClock;
import io.lettuce.core.ScriptOutputType;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Per-app settings in Redis, one hash per app under the app's own hash tag ({@link
 * RedisKeys#appSettings}), next to its slot leases. Read when a job is created without a routing
 * (one HGET); written by the admin API. Thread-safe; holds no resources of its own.
 */
public final class AppSettingsStore {

  private final KairosRedis redis;
  private final KairosClock clock;
  private final LuaScript put = LuaScript.load(AppSettingsStore.class, "put_app_settings");

  public AppSettingsStore(KairosRedis redis, KairosClock clock) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The app's settings; {@link AppSettings#none} when nobody wrote any. */
  public AppSettings get(String app) {
    requireValid(app);
    Map<String, String> hash = redis.sync().hgetall(RedisKeys.appSettings(app));
    if (hash == null || hash.isEmpty()) {
      return AppSettings.none(app);
    }
    return new AppSettings(
        app,
        hash.getOrDefault("description", ""),
        routing(hash.get("defaultRouting")),
        parse(hash.get("updatedMs")));
  }

  /**
   * Replaces the app's settings (an absent default routing clears it).
   *
   * @throws IllegalArgumentException when they have {@link AppSettings#problems()}; nothing written
   */
  public AppSettings put(String app, String description, Optional<RoutingStrategy> routing) {
    AppSettings next = new AppSettings(app, description, routing, clock.nowMs());
    if (!next.problems().isEmpty()) {
      throw new IllegalArgumentException("invalid app settings: " + next.problems());
    }
    put.eval(
        redis.sync(),
        ScriptOutputType.STATUS,
        new String[] {RedisKeys.appSettings(app)},
        description,
        routing.map(Enum::name).orElse(""),
        Long.toString(next.updatedMs()));
    return next;
  }

  /**
   * The routing a new job of {@code app} that names none gets: the app's default, else {@link
   * JobDefinition#DEFAULT_ROUTING}. An invalid app name (the validator reports it) has none.
   */
  public RoutingStrategy defaultRoutingOf(String app) {
    if (!AppSettings.isValidApp(app)) {
      return JobDefinition.DEFAULT_ROUTING;
    }
    return routing(redis.sync().hget(RedisKeys.appSettings(app), "defaultRouting"))
        .orElse(JobDefinition.DEFAULT_ROUTING);
  }

  private static Optional<RoutingStrategy> routing(String name) {
    if (name == null || name.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(RoutingStrategy.valueOf(name));
    } catch (IllegalArgumentException e) {
      // Written by a newer version: its jobs fall back to the global default here.
      return Optional.empty();
    }
  }

  private static long parse(String ms) {
    try {
      return ms == null ? 0 : Long.parseLong(ms);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static void requireValid(String app) {
    if (!AppSettings.isValidApp(app)) {
      throw new IllegalArgumentException("not a valid app name: " + app);
    }
  }
}
