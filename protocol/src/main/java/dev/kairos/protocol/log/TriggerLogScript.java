package dev.kairos.protocol.log;

import dev.kairos.core.log.LogLine;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.ScriptOutputType;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * {@code append_trigger_log.lua}: adds a batch of one trigger's handler log lines to its log
 * ({@link RedisKeys#triggerLog}) and appends one {@code TRIGGER_LOG} event to its shard's stream,
 * atomically. The caller (executor-mq's {@code TriggerLogShipper}) decides what goes in a batch and
 * counts what was shipped or lost. Thread-safe.
 */
public final class TriggerLogScript {

  private final LuaScript append = LuaScript.load(TriggerLogScript.class, "append_trigger_log");
  private final KairosRedis redis;
  private final RedisKeys keys;

  public TriggerLogScript(KairosRedis redis, RedisKeys keys) {
    this.redis = redis;
    this.keys = keys;
  }

  /**
   * One script call for {@code lines} of one trigger, issued without waiting.
   *
   * @param ttlMs how long the trigger's log is kept, renewed by every batch
   * @param eventsMaxLen approximate bound of the shard's events stream
   * @param fireMs the trigger's scheduled fire time (the history's retention key)
   * @return the script's answer, the number of lines in the batch
   */
  public CompletionStage<Object> appendAsync(
      long ttlMs,
      long eventsMaxLen,
      String triggerId,
      String jobId,
      long fireMs,
      List<LogLine> lines) {
    int shard = keys.shardOf(jobId);
    String[] args = new String[5 + 2 * lines.size()];
    args[0] = Long.toString(ttlMs);
    args[1] = Long.toString(eventsMaxLen);
    args[2] = triggerId;
    args[3] = jobId;
    args[4] = Long.toString(fireMs);
    int i = 5;
    for (LogLine line : lines) {
      args[i++] = Long.toString(line.seq());
      args[i++] = line.encodeBody();
    }
    return append.<Object>evalAsync(
        redis.async(),
        ScriptOutputType.INTEGER,
        new String[] {RedisKeys.triggerLog(shard, triggerId), RedisKeys.events(shard)},
        args);
  }
}
