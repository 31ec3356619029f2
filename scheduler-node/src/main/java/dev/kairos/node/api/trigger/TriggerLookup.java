package dev.kairos.node.api.trigger;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.protocol.claim.ClaimBatch;
import dev.kairos.sync.history.TriggerHistoryQueries;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds triggers. PostgreSQL holds a trigger's history from its end on (its one {@code
 * TRIGGER_ENDED} event, docs/protocol.md); Redis holds its record while it is in flight and until
 * that history is synced, then only a tombstone if it succeeded. One trigger: its Redis record
 * (live state), then PostgreSQL, then the tombstone. A job's recent triggers: the first page merges
 * the newest records of the job's trigger index in Redis (in flight, or ended and not yet synced)
 * into PostgreSQL's page; without PostgreSQL, the index alone. Every item says its source.
 */
public final class TriggerLookup {

  private static final Logger log = LoggerFactory.getLogger(TriggerLookup.class);

  /** A page of a job's triggers; {@code total} counts what the source holds for the job. */
  public record TriggerPage(
      List<TriggerView> items, int page, int size, Long total, String source, String note) {}

  private final KairosRedis redis;
  private final RedisKeys keys;
  private final TriggerHistoryQueries history; // null without a DataSource
  private final Duration timeout;

  public TriggerLookup(
      KairosRedis redis, RedisKeys keys, TriggerHistoryQueries history, Duration timeout) {
    this.redis = redis;
    this.keys = keys;
    this.history = history;
    this.timeout = timeout;
  }

  public Optional<TriggerView> find(TriggerId id) {
    int shard = keys.shardOf(id.jobId());
    Map<String, String> hash = redis.sync().hgetall(RedisKeys.trigger(shard, id.value()));
    if (hash != null && !hash.isEmpty()) {
      return Optional.of(TriggerView.fromRedis(hash));
    }
    if (history != null) {
      try {
        Optional<TriggerView> row = history.trigger(id.value()).map(TriggerView::fromPostgres);
        if (row.isPresent()) {
          return row;
        }
      } catch (SQLException e) {
        log.warn("trigger {}: PostgreSQL unavailable for the lookup ({})", id, e.toString());
      }
    }
    return tombstone(shard, id);
  }

  /**
   * What a compacted trigger's tombstone says (its state), when PostgreSQL, which holds its
   * history, does not answer. Only scheduled fires are compacted: their id tells the fire time (any
   * other id finds no tombstone there).
   */
  private Optional<TriggerView> tombstone(int shard, TriggerId id) {
    long fireMs = id.fireMs();
    String state = redis.sync().hget(RedisKeys.ended(shard, fireMs), id.value());
    return state == null
        ? Optional.empty()
        : Optional.of(TriggerView.tombstone(id.value(), id.jobId(), fireMs, state));
  }

  public TriggerPage recent(String jobId, int page, int size) {
    String why = "no PostgreSQL configured";
    if (history != null) {
      try {
        List<TriggerView> rows =
            history.recentTriggers(jobId, page, size).stream()
                .map(TriggerView::fromPostgres)
                .toList();
        long total = history.countTriggers(jobId);
        if (page > 0) {
          return new TriggerPage(rows, page, size, total, "postgresql", null);
        }
        return withRecentRecords(jobId, rows, size, total);
      } catch (SQLException e) {
        log.warn("job {}: PostgreSQL unavailable for trigger history ({})", jobId, e.toString());
        why = "PostgreSQL unavailable";
      }
    }
    return fromRedis(jobId, page, size, why);
  }

  /**
   * PostgreSQL's first page with the job's newest Redis records merged in: triggers in flight have
   * no history row yet, and ended ones have one only once synced. A record wins over a row of the
   * same trigger (it is as new or newer); newest fire first.
   */
  private TriggerPage withRecentRecords(
      String jobId, List<TriggerView> rows, int size, long total) {
    Map<String, TriggerView> merged = new LinkedHashMap<>();
    rows.forEach(row -> merged.put(row.trigger().triggerId(), row));
    int fresh = 0;
    for (TriggerView record : records(jobId, 0, size)) {
      if (merged.put(record.trigger().triggerId(), record) == null) {
        fresh++;
      }
    }
    List<TriggerView> items =
        merged.values().stream()
            .sorted(
                Comparator.comparing(
                        (TriggerView v) ->
                            v.trigger().fireMs() == null ? Long.MIN_VALUE : v.trigger().fireMs())
                    .reversed())
            .limit(size)
            .toList();
    return new TriggerPage(items, 0, size, total + fresh, "postgresql", null);
  }

  private TriggerPage fromRedis(String jobId, int page, int size, String why) {
    long total = redis.sync().zcard(RedisKeys.jobTriggers(keys.shardOf(jobId), jobId));
    return new TriggerPage(
        records(jobId, page, size),
        page,
        size,
        total,
        "redis",
        why
            + ": recent triggers from Redis only (a job's newest "
            + ClaimBatch.JOB_TRIGGER_INDEX_SIZE
            + ", while their records last)");
  }

  /**
   * The records of a page of the job's trigger index, newest first. An indexed trigger whose record
   * is gone (expired, or compacted once synced) is shown from its tombstone when it has one.
   */
  private List<TriggerView> records(String jobId, int page, int size) {
    int shard = keys.shardOf(jobId);
    String index = RedisKeys.jobTriggers(shard, jobId);
    List<String> ids =
        redis
            .sync()
            .zrevrangebyscore(index, Range.unbounded(), Limit.create((long) page * size, size));
    List<CompletableFuture<Map<String, String>>> reads = new ArrayList<>();
    for (String id : ids) {
      reads.add(redis.async().hgetall(RedisKeys.trigger(shard, id)).toCompletableFuture());
    }
    List<TriggerView> items = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      Map<String, String> hash = await(reads.get(i));
      if (hash != null && !hash.isEmpty()) {
        items.add(TriggerView.fromRedis(hash));
      } else {
        tombstone(shard, new TriggerId(ids.get(i))).ifPresent(items::add);
      }
    }
    return items;
  }

  private <T> T await(CompletableFuture<T> future) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosException("interrupted reading triggers", e);
    } catch (Exception e) {
      throw new KairosException("cannot read triggers", e);
    }
  }
}
