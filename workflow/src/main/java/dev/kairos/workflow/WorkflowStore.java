package dev.kairos.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.core.error.KairosException;
import dev.kairos.core.model.ScheduleType;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.schedule.CronDialect;
import dev.kairos.core.schedule.Schedules;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Workflow definitions and runs in Redis ({@link WorkflowKeys}); every write is one script.
 * Thread-safe: it holds no state but the connection.
 */
public final class WorkflowStore {

  /** How many run ids a workflow's index keeps (the newest). */
  public static final int RUN_INDEX_SIZE = 200;

  private static final LuaScript PUT = LuaScript.load(WorkflowStore.class, "put_workflow");
  private static final LuaScript DELETE = LuaScript.load(WorkflowStore.class, "delete_workflow");
  private static final LuaScript CREATE_RUN =
      LuaScript.load(WorkflowStore.class, "create_workflow_run");
  private static final LuaScript UPDATE_RUN =
      LuaScript.load(WorkflowStore.class, "update_workflow_run");
  private static final LuaScript ADVANCE =
      LuaScript.load(WorkflowStore.class, "advance_workflow_due");

  static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private final KairosRedis redis;

  public WorkflowStore(KairosRedis redis) {
    this.redis = redis;
  }

  /** A run as read, with the revision an update must name. */
  public record Versioned(WorkflowRun run, String rev) {}

  /** A scheduled workflow whose fire time has come. */
  public record Due(String workflowId, long fireMs) {}

  public Optional<WorkflowDefinition> get(String id) {
    String json = redis.sync().hget(WorkflowKeys.DEFS, id);
    String version = redis.sync().hget(WorkflowKeys.VERSIONS, id);
    if (json == null || version == null) {
      return Optional.empty();
    }
    return Optional.of(read(json, WorkflowDefinition.class).withVersion(Long.parseLong(version)));
  }

  /** Every definition, sorted by id. */
  public List<WorkflowDefinition> list() {
    Map<String, String> defs = redis.sync().hgetall(WorkflowKeys.DEFS);
    Map<String, String> versions = redis.sync().hgetall(WorkflowKeys.VERSIONS);
    List<WorkflowDefinition> out = new ArrayList<>();
    defs.forEach(
        (id, json) -> {
          String v = versions.get(id);
          if (v != null) {
            out.add(read(json, WorkflowDefinition.class).withVersion(Long.parseLong(v)));
          }
        });
    out.sort(Comparator.comparing(WorkflowDefinition::id));
    return out;
  }

  /** Creates {@code w} (validated by the caller) at version 1. */
  public WorkflowDefinition create(WorkflowDefinition w, long nowMs) {
    long v = put(w, "create", 0, nowMs);
    if (v == -1) {
      throw new WorkflowExistsException(w.id());
    }
    return w.withVersion(v);
  }

  /** Replaces {@code w} if it is still at {@code expected}. */
  public WorkflowDefinition update(WorkflowDefinition w, long expected, long nowMs) {
    long v = put(w, "update", expected, nowMs);
    if (v == -2) {
      throw new WorkflowNotFoundException(w.id());
    }
    if (v == -3) {
      throw new WorkflowVersionConflictException(w.id(), expected);
    }
    return w.withVersion(v);
  }

  public void delete(String id, OptionalLong expected) {
    Long r =
        DELETE.eval(
            redis.sync(),
            ScriptOutputType.INTEGER,
            new String[] {
              WorkflowKeys.DEFS, WorkflowKeys.VERSIONS, WorkflowKeys.DUE, WorkflowKeys.runs(id)
            },
            id,
            expected.isPresent() ? Long.toString(expected.getAsLong()) : "");
    if (r == -2) {
      throw new WorkflowNotFoundException(id);
    }
    if (r == -3) {
      throw new WorkflowVersionConflictException(id, expected.orElse(0));
    }
  }

  private long put(WorkflowDefinition w, String mode, long expected, long nowMs) {
    OptionalLong next = nextFire(w, nowMs);
    Long v =
        PUT.eval(
            redis.sync(),
            ScriptOutputType.INTEGER,
            new String[] {WorkflowKeys.DEFS, WorkflowKeys.VERSIONS, WorkflowKeys.DUE},
            w.id(),
            mode,
            Long.toString(expected),
            write(w.withVersion(0)),
            next.isPresent() ? Long.toString(next.getAsLong()) : "");
    return v;
  }

  /** The first fire of an enabled scheduled workflow strictly after {@code afterMs}. */
  public static OptionalLong nextFire(WorkflowDefinition w, long afterMs) {
    if (!w.enabled() || w.schedule() == null) {
      return OptionalLong.empty();
    }
    return Schedules.parse(
            ScheduleType.CRON,
            w.schedule().cron(),
            Schedules.zone(w.schedule().zone()),
            CronDialect.DEFAULT,
            afterMs)
        .nextFireAfter(afterMs);
  }

  /** The next fire of a scheduled workflow, from its due entry. */
  public OptionalLong dueAt(String id) {
    Double score = redis.sync().zscore(WorkflowKeys.DUE, id);
    return score == null ? OptionalLong.empty() : OptionalLong.of(score.longValue());
  }

  /** Up to {@code limit} scheduled workflows due at {@code nowMs}: one ZRANGEBYSCORE. */
  public List<Due> due(long nowMs, int limit) {
    List<ScoredValue<String>> hits =
        redis
            .sync()
            .zrangebyscoreWithScores(
                WorkflowKeys.DUE,
                Range.create(Double.NEGATIVE_INFINITY, (double) nowMs),
                Limit.create(0, limit));
    List<Due> out = new ArrayList<>(hits.size());
    for (ScoredValue<String> h : hits) {
      out.add(new Due(h.getValue(), (long) h.getScore()));
    }
    return out;
  }

  /** Moves the due entry from {@code fireMs} to {@code next}; false if it changed meanwhile. */
  public boolean advance(String id, long fireMs, OptionalLong next) {
    Long r =
        ADVANCE.eval(
            redis.sync(),
            ScriptOutputType.INTEGER,
            new String[] {WorkflowKeys.DUE},
            id,
            Long.toString(fireMs),
            next.isPresent() ? Long.toString(next.getAsLong()) : "");
    return r == 1L;
  }

  /** Notes that run {@code runId} is starting; the leader finishes it after {@code afterMs}. */
  public void markStarting(String runId, long afterMs) {
    redis.sync().zadd(WorkflowKeys.STARTING, (double) afterMs, runId);
  }

  /** The run's roots are submitted: no recovery needed. */
  public void startedFully(String runId) {
    redis.sync().zrem(WorkflowKeys.STARTING, runId);
  }

  /**
   * Up to {@code limit} runs whose start was left unfinished at {@code nowMs}: one ZRANGEBYSCORE.
   */
  public List<String> unfinishedStarts(long nowMs, int limit) {
    return redis
        .sync()
        .zrangebyscore(
            WorkflowKeys.STARTING,
            Range.create(Double.NEGATIVE_INFINITY, (double) nowMs),
            Limit.create(0, limit));
  }

  /** Creates the run; false when a run with its id exists already. */
  public boolean createRun(WorkflowRun run) {
    Long r =
        CREATE_RUN.eval(
            redis.sync(),
            ScriptOutputType.INTEGER,
            new String[] {WorkflowKeys.run(run.id())},
            write(run));
    return r == 1L;
  }

  /** Adds the run to its workflow's index of recent runs, keeping the newest. */
  public void indexRun(WorkflowRun run) {
    String key = WorkflowKeys.runs(run.workflowId());
    redis.sync().zadd(key, (double) run.startedMs(), run.id());
    redis.sync().zremrangebyrank(key, 0, -(RUN_INDEX_SIZE + 1));
  }

  public Optional<Versioned> run(String runId) {
    Map<String, String> hash = redis.sync().hgetall(WorkflowKeys.run(runId));
    if (hash == null || !hash.containsKey("run")) {
      return Optional.empty();
    }
    return Optional.of(new Versioned(read(hash.get("run"), WorkflowRun.class), hash.get("rev")));
  }

  /**
   * Writes {@code run} if it is still at {@code rev}; an ended run expires {@code retentionMs}
   * later.
   *
   * @return 1 written, 0 someone wrote it first (read again), -2 gone
   */
  public long updateRun(WorkflowRun run, String rev, long retentionMs) {
    Long r =
        UPDATE_RUN.eval(
            redis.sync(),
            ScriptOutputType.INTEGER,
            new String[] {WorkflowKeys.run(run.id())},
            rev,
            write(run),
            run.endedMs() > 0 ? Long.toString(retentionMs) : "0");
    return r;
  }

  /** The newest run ids of a workflow, newest first. */
  public List<String> recentRuns(String workflowId, int limit) {
    return redis.sync().zrevrange(WorkflowKeys.runs(workflowId), 0, limit - 1);
  }

  static String write(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new KairosException("cannot write workflow JSON", e);
    }
  }

  static <T> T read(String json, Class<T> type) {
    try {
      return JSON.readValue(json, type);
    } catch (JsonProcessingException e) {
      throw new KairosException("cannot read workflow JSON", e);
    }
  }
}
