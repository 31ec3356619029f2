package dev.kairos.node.api.trigger;

import dev.kairos.core.log.LogLine;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.model.TriggerState;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.sync.history.TriggerHistoryQueries;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pages and tails a trigger's handler log: from its Redis ZSET while that exists (lines arrive
 * there as the run goes, batched by the executor's flusher), else from PostgreSQL ({@code
 * kairos_trigger_log}, synced from the shard streams). The trigger's state is read before the
 * lines: an executor issues a run's last lines before its completion, so a page read after a final
 * state holds every line.
 */
public final class TriggerLogReader {

  public static final int DEFAULT_LIMIT = 200;
  public static final int MAX_LIMIT = 1_000;

  private static final Logger log = LoggerFactory.getLogger(TriggerLogReader.class);

  private final KairosRedis redis;
  private final RedisKeys keys;
  private final TriggerHistoryQueries history; // null without a DataSource
  private final TriggerLookup lookup;

  public TriggerLogReader(
      KairosRedis redis, RedisKeys keys, TriggerHistoryQueries history, TriggerLookup lookup) {
    this.redis = redis;
    this.keys = keys;
    this.history = history;
    this.lookup = lookup;
  }

  /**
   * @return empty when no such trigger is known to Redis or PostgreSQL
   */
  public Optional<TriggerLogPage> read(TriggerId id, long after, int limit) {
    Optional<TriggerView> trigger = lookup.find(id);
    if (trigger.isEmpty()) {
      return Optional.empty();
    }
    String state = trigger.get().trigger().state();
    boolean finished = isFinal(state);
    String key = RedisKeys.triggerLog(keys.shardOf(id.jobId()), id.value());
    List<String> members =
        redis
            .sync()
            .zrangebyscore(
                key,
                Range.from(Range.Boundary.excluding(after), Range.Boundary.unbounded()),
                Limit.create(0, limit));
    List<LogLine> lines = new ArrayList<>(members.size());
    for (String member : members) {
      lines.add(LogLine.decode(member));
    }
    String source = "redis";
    if (lines.isEmpty() && redis.sync().exists(key) == 0) {
      lines = fromPostgres(id, after, limit);
      source = lines.isEmpty() ? "none" : "postgresql";
    }
    long next = lines.isEmpty() ? after : lines.get(lines.size() - 1).seq();
    return Optional.of(
        new TriggerLogPage(
            id.value(), lines, next, lines.size() == limit, finished, state, source));
  }

  private List<LogLine> fromPostgres(TriggerId id, long after, int limit) {
    if (history == null) {
      return List.of();
    }
    try {
      return history.logLines(id.value(), after, limit);
    } catch (SQLException e) {
      log.warn("trigger {}: PostgreSQL unavailable for its log ({})", id, e.toString());
      return List.of();
    }
  }

  private static boolean isFinal(String state) {
    try {
      return state != null && TriggerState.valueOf(state).isTerminal();
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
