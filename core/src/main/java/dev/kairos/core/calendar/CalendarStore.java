package dev.kairos.core.calendar;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.core.error.KairosException;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.KairosClock;
import io.lettuce.core.KeyValue;
import io.lettuce.core.ScriptOutputType;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The cluster's calendars in Redis: one hash of name → JSON and a version counter under the {@code
 * {cal}} hash tag ({@link RedisKeys#calendars()}, {@link RedisKeys#calendarsVersion()}). Written by
 * the admin API, read by it and by the leader's scan ({@code CalendarCache}). Thread-safe; holds no
 * resources of its own.
 */
public final class CalendarStore {

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private final KairosRedis redis;
  private final KairosClock clock;
  private final LuaScript put = LuaScript.load(CalendarStore.class, "put_calendar");
  private final LuaScript delete = LuaScript.load(CalendarStore.class, "delete_calendar");

  public CalendarStore(KairosRedis redis, KairosClock clock) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Every calendar, by name in name order. */
  public Map<String, CalendarDefinition> all() {
    return decodeAll(redis.sync().hgetall(RedisKeys.calendars()));
  }

  public Optional<CalendarDefinition> get(String name) {
    String json = redis.sync().hget(RedisKeys.calendars(), name);
    return json == null ? Optional.empty() : Optional.of(decode(json));
  }

  /** The names among {@code names} that are no calendar (one HMGET; none when it is empty). */
  public Set<String> missing(Collection<String> names) {
    Set<String> missing = new LinkedHashSet<>();
    if (names.isEmpty()) {
      return missing;
    }
    List<KeyValue<String, String>> found =
        redis.sync().hmget(RedisKeys.calendars(), names.toArray(String[]::new));
    for (KeyValue<String, String> value : found) {
      if (!value.hasValue()) {
        missing.add(value.getKey());
      }
    }
    return missing;
  }

  /**
   * Creates or replaces a calendar; its version becomes the stored one's + 1.
   *
   * @param expectedVersion the version the caller read (0: it must not exist yet), or empty to
   *     replace whatever is stored
   * @return the stored definition
   * @throws IllegalArgumentException when the definition has {@link CalendarDefinition#problems()}
   * @throws CalendarConflictException when {@code expectedVersion} no longer matches
   */
  public CalendarDefinition put(CalendarDefinition submitted, Optional<Long> expectedVersion) {
    if (!submitted.problems().isEmpty()) {
      throw new IllegalArgumentException("invalid calendar: " + submitted.problems());
    }
    for (int attempt = 0; attempt < 5; attempt++) {
      long current = get(submitted.name()).map(CalendarDefinition::version).orElse(0L);
      if (expectedVersion.isPresent() && expectedVersion.get() != current) {
        throw new CalendarConflictException(submitted.name(), expectedVersion.get(), current);
      }
      CalendarDefinition next = submitted.withVersion(current + 1, clock.nowMs());
      Long counter =
          put.eval(
              redis.sync(),
              ScriptOutputType.INTEGER,
              new String[] {RedisKeys.calendars(), RedisKeys.calendarsVersion()},
              next.name(),
              encode(next),
              Long.toString(current));
      if (counter != null && counter >= 0) {
        return next;
      }
      if (expectedVersion.isPresent()) {
        throw new CalendarConflictException(submitted.name(), expectedVersion.get(), -1);
      }
    }
    throw new KairosException("calendar " + submitted.name() + ": too many concurrent writes");
  }

  /** Deletes a calendar; false when there was none of that name. */
  public boolean delete(String name) {
    Long deleted =
        delete.eval(
            redis.sync(),
            ScriptOutputType.INTEGER,
            new String[] {RedisKeys.calendars(), RedisKeys.calendarsVersion()},
            name);
    return deleted != null && deleted == 1L;
  }

  /** The version counter: moves on every write; 0 before the first. */
  public long version() {
    return parseVersion(redis.sync().get(RedisKeys.calendarsVersion()));
  }

  public static long parseVersion(String counter) {
    try {
      return counter == null ? 0 : Long.parseLong(counter);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** The definitions of an {@code HGETALL} of {@link RedisKeys#calendars()}, by name. */
  public static Map<String, CalendarDefinition> decodeAll(Map<String, String> hash) {
    Map<String, CalendarDefinition> all = new TreeMap<>();
    if (hash != null) {
      hash.forEach((name, json) -> all.put(name, decode(json)));
    }
    return all;
  }

  static String encode(CalendarDefinition definition) {
    try {
      return JSON.writeValueAsString(definition);
    } catch (JsonProcessingException e) {
      throw new KairosException("calendar " + definition.name() + " cannot be encoded", e);
    }
  }

  static CalendarDefinition decode(String json) {
    try {
      return JSON.readValue(json, CalendarDefinition.class);
    } catch (JsonProcessingException e) {
      throw new KairosException("stored calendar is not valid JSON: " + e.getOriginalMessage(), e);
    }
  }
}
