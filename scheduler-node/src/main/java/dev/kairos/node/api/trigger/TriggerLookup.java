package dev.kairos.node.api.trigger;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.sync.history.TriggerHistoryQueries;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds triggers. One trigger: Redis first (its record lives there until fire time + dedup window
 * and holds the live state), then PostgreSQL. A job's recent triggers: PostgreSQL when it answers
 * (the history, behind Redis by the sync lag), otherwise the job's trigger index in Redis. Every
 * answer says its source.
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
    Map<String, String> hash =
        redis.sync().hgetall(RedisKeys.trigger(keys.shardOf(id.jobId()), id.value()));
    if (hash != null && !hash.isEmpty()) {
      return Optional.of(TriggerView.fromRedis(hash));
    }
    if (history == null) {
      return Optional.empty();
    }
    try {
      return history.trigger(id.value()).map(TriggerView::fromPostgres);
    } catch (SQLException e) {
      log.warn("trigger {}: PostgreSQL unavailable for the lookup ({})", id, e.toString());
      return Optional.empty();
    }
  }

  public TriggerPage recent(String jobId, int page, int size) {
    String why = "no PostgreSQL configured";
    if (history != null) {
      try {
        List<TriggerView> rows =
            history.recentTriggers(jobId, page, size).stream()
                .map(TriggerView::fromPostgres)
                .toList();
        return new TriggerPage(rows, page, size, history.countTriggers(jobId), "postgresql", null);
      } catch (SQLException e) {
        log.warn("job {}: PostgreSQL unavailable for trigger history ({})", jobId, e.toString());
        why = "PostgreSQL unavailable";
      }
    }
    return fromRedis(jobId, page, size, why);
  }

  private TriggerPage fromRedis(String jobId, int page, int size, String why) {
    int shard = keys.shardOf(jobId);
    String index = RedisKeys.jobTriggers(shard, jobId);
    long total = redis.sync().zcard(index);
    List<String> ids =
        redis
            .sync()
            .zrevrangebyscore(index, Range.unbounded(), Limit.create((long) page * size, size));
    List<CompletableFuture<Map<String, String>>> reads = new ArrayList<>();
    for (String id : ids) {
      reads.add(redis.async().hgetall(RedisKeys.trigger(shard, id)).toCompletableFuture());
    }
    List<TriggerView> items = new ArrayList<>();
    for (CompletableFuture<Map<String, String>> read : reads) {
      Map<String, String> hash = await(read);
      if (hash != null && !hash.isEmpty()) { // expired since it was indexed
        items.add(TriggerView.fromRedis(hash));
      }
    }
    return new TriggerPage(
        items,
        page,
        size,
        total,
        "redis",
        why + ": recent triggers from Redis only (records expire after the dedup window)");
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
