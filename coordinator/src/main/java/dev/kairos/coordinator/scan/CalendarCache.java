package dev.kairos.coordinator.scan;

import dev.kairos.core.calendar.CalendarDefinition;
import dev.kairos.core.calendar.CalendarStore;
import dev.kairos.core.calendar.ExclusionCalendar;
import dev.kairos.core.error.KairosException;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scan's compiled calendars, reloaded when the cluster's calendar version counter ({@link
 * RedisKeys#calendarsVersion()}) moves: one {@code GET} per pass that has a due job with calendars,
 * and an {@code HGETALL} of the (few) calendars only after a write. Thread-safe: a pass's shards
 * may refresh it concurrently, and the last snapshot read wins (they read the same counter).
 */
final class CalendarCache {

  private static final Logger log = LoggerFactory.getLogger(CalendarCache.class);

  /** The calendars at one value of the version counter. */
  record Snapshot(long version, Map<String, ExclusionCalendar> calendars) {}

  private volatile Snapshot snapshot = new Snapshot(-1, Map.of());

  /** The calendars as of the counter now: the cached ones when it has not moved. */
  CompletableFuture<Snapshot> refresh(RedisClusterAsyncCommands<String, String> async) {
    return async
        .get(RedisKeys.calendarsVersion())
        .toCompletableFuture()
        .thenCompose(
            counter -> {
              long version = CalendarStore.parseVersion(counter);
              Snapshot cached = snapshot;
              if (cached.version() == version) {
                return CompletableFuture.completedFuture(cached);
              }
              return async
                  .hgetall(RedisKeys.calendars())
                  .toCompletableFuture()
                  .thenApply(hash -> load(version, hash));
            });
  }

  private Snapshot load(long version, Map<String, String> hash) {
    Map<String, ExclusionCalendar> compiled = new HashMap<>();
    hash.forEach(
        (name, json) -> {
          try {
            Map<String, CalendarDefinition> one = CalendarStore.decodeAll(Map.of(name, json));
            compiled.put(name, one.get(name).compile());
          } catch (KairosException | IllegalArgumentException e) {
            // Written by a newer version, or by hand: it excludes nothing rather than stop scans.
            log.warn("calendar {} cannot be read and excludes nothing: {}", name, e.getMessage());
          }
        });
    Snapshot next = new Snapshot(version, Map.copyOf(compiled));
    snapshot = next;
    log.info("calendars reloaded at version {}: {}", version, compiled.keySet());
    return next;
  }
}
