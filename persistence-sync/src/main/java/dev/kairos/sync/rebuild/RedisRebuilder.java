package dev.kairos.sync.rebuild;

import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.JobFields;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.KairosClock;
import dev.kairos.sync.worker.SchemaMigrator;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restores jobs from PostgreSQL into Redis shards that lost their data.
 *
 * <p>A shard is initialised when its marker {@link RebuildKeys#initialised} exists. The marker
 * lives in the shard's own slot, so a master that loses its data loses exactly its shards' markers.
 * For every shard without a marker, one node (the holder of {@link RebuildKeys#lock}, SET NX PX)
 * loads the shard's live jobs from PostgreSQL, restores each one atomically with its recomputed
 * next fire (restore_job.lua skips jobs that exist in Redis: Redis stays the truth; the restores
 * are pipelined, {@value #RESTORE_CHUNK} at a time), then sets the marker and releases the lock in
 * one script. Nodes that do not get the lock wait for the marker. A rebuilder that dies mid-way
 * leaves no marker; its lock expires and another node finishes (restores are idempotent).
 *
 * <p>A provisional marker ({@link #markProvisionalIfEmpty(int)}) lets a new cluster schedule before
 * PostgreSQL answers; completing it restores only jobs created before it was set, which a new
 * cluster does not have.
 *
 * <p>Call {@link #ensureInitialised(int)} before scanning starts (the node's {@link
 * ShardInitialiser} does, and its readiness keeps the scanner off shards without a marker), and
 * again as an admin operation.
 */
public final class RedisRebuilder {

  public static final Duration DEFAULT_LOCK_TTL = Duration.ofSeconds(60);

  /** Restores pipelined together: bounds the commands queued on the connection at once. */
  static final int RESTORE_CHUNK = 500;

  private static final Logger log = LoggerFactory.getLogger(RedisRebuilder.class);

  private static final String LIVE_JOBS =
      """
      SELECT job_id, app, handler, schedule_type, schedule, zone, params, routing, block,
          timeout_ms, retry_count, retry_backoff, misfire, misfire_threshold_ms, enabled,
          schedule_version, version, created_ms, updated_ms,
          GREATEST(j.last_fire_ms,
              (SELECT max(t.fire_ms) FROM kairos_trigger t
               WHERE t.job_id = j.job_id
                 AND (t.trigger_id = t.job_id || ':' || t.fire_ms
                      OR t.trigger_id LIKE t.job_id || ':' || t.fire_ms || '#%'))) AS last_fire_ms,
          child_job_ids, cron_dialect, description, owner, alarm_emails, alarm_webhooks,
          calendars, lateness_objective
      FROM kairos_job j WHERE shard = ? AND NOT deleted AND COALESCE(created_ms, 0) < ?
      ORDER BY job_id
      """;

  private final KairosRedis redis;
  private final DataSource dataSource;
  private final KairosClock clock;
  private final Duration lockTtl;
  private final LuaScript restoreJob = LuaScript.load(RedisRebuilder.class, "restore_job");
  private final LuaScript finishRebuild = LuaScript.load(RedisRebuilder.class, "finish_rebuild");
  private final LuaScript releaseLock =
      LuaScript.load(RedisRebuilder.class, "release_rebuild_lock");
  private final SchemaMigrator migrator;
  private volatile boolean migrated;

  public RedisRebuilder(
      KairosRedis redis, DataSource dataSource, KairosClock clock, Duration lockTtl) {
    this.redis = redis;
    this.dataSource = dataSource;
    this.clock = clock;
    this.lockTtl = lockTtl;
    this.migrator = new SchemaMigrator(dataSource);
  }

  public boolean isInitialised(int shard) {
    return redis.sync().exists(RebuildKeys.initialised(shard)) == 1;
  }

  /**
   * Marks every shard provisional when NO shard has a marker: an empty Redis is a new cluster or a
   * whole lost Redis, and Redis alone cannot tell which. Provisional shards are scanned at once, so
   * a new cluster schedules without waiting for PostgreSQL; {@link #ensureInitialised(int)} later
   * restores what PostgreSQL holds from before the marker (nothing, for a new cluster). A Redis
   * where some shards have markers lost only part of its data: those shards wait for PostgreSQL.
   *
   * @return how many markers this call set (0 when any shard already had one)
   */
  public int markProvisionalIfEmpty(int shards) {
    for (int s = 0; s < shards; s++) {
      if (isInitialised(s)) {
        return 0;
      }
    }
    String value = RebuildKeys.provisional(clock.nowMs());
    int set = 0;
    for (int s = 0; s < shards; s++) {
      if ("OK".equals(redis.sync().set(RebuildKeys.initialised(s), value, SetArgs.Builder.nx()))) {
        set++;
      }
    }
    if (set > 0) {
      // INFO: every new cluster passes here. Whether Redis had lost data is known only once
      // PostgreSQL answers, and ensureInitialised warns then if it restored any job.
      log.info(
          "Redis holds no Kairos shard markers (a new cluster, or a whole Redis lost its data):"
              + " {} shards marked provisional and scheduled now; jobs PostgreSQL holds from"
              + " before {} are restored as soon as it answers",
          set,
          value);
    }
    return set;
  }

  /**
   * Makes every shard initialised: rebuilds those without a marker, and completes provisional ones;
   * returns when every shard without a marker has one (or the holder of its lock failed).
   *
   * @param defaultShards shard count to store when Redis has none (an empty Redis)
   * @throws SQLException when PostgreSQL cannot be read (the shard's lock is released, nothing is
   *     marked; call again)
   */
  public RebuildReport ensureInitialised(int defaultShards) throws SQLException {
    int shards = ClusterMetadata.initialise(redis, defaultShards);
    List<Integer> rebuilt = new ArrayList<>();
    int restored = 0;
    int kept = 0;
    int restoredIntoProvisional = 0;
    for (int s = 0; s < shards; s++) {
      String marker = redis.sync().get(RebuildKeys.initialised(s));
      if (marker != null && RebuildKeys.provisionalSince(marker) < 0) {
        continue;
      }
      String token = UUID.randomUUID().toString();
      String ok =
          redis.sync().set(RebuildKeys.lock(s), token, SetArgs.Builder.nx().px(lockTtl.toMillis()));
      if (!"OK".equals(ok)) {
        if (marker == null) {
          awaitMarkerOrLockRelease(s);
        } // a provisional shard is scanned meanwhile; whoever holds the lock completes it
        continue;
      }
      // Re-read under the lock: another node may have finished between our read and our lock.
      marker = redis.sync().get(RebuildKeys.initialised(s));
      if (marker != null && RebuildKeys.provisionalSince(marker) < 0) {
        release(s, token);
        continue;
      }
      long createdBefore = marker == null ? Long.MAX_VALUE : RebuildKeys.provisionalSince(marker);
      int[] counts;
      try {
        counts = rebuild(s, createdBefore);
      } catch (SQLException | RuntimeException e) {
        release(s, token);
        throw e;
      }
      Long marked =
          finishRebuild.eval(
              redis.sync(),
              ScriptOutputType.INTEGER,
              new String[] {RebuildKeys.initialised(s), RebuildKeys.lock(s)},
              token,
              Long.toString(clock.nowMs()));
      if (marked == 1) {
        rebuilt.add(s);
        restored += counts[0];
        kept += counts[1];
        if (marker != null) {
          restoredIntoProvisional += counts[0];
        }
        // A new cluster completes every shard with nothing to restore: not worth a line each.
        boolean quiet = marker != null && counts[0] == 0 && counts[1] == 0;
        String line = "shard {} {} from PostgreSQL: {} jobs restored, {} kept";
        String how = marker == null ? "rebuilt" : "completed (was provisional)";
        if (quiet) {
          log.debug(line, s, how, counts[0], counts[1]);
        } else {
          log.info(line, s, how, counts[0], counts[1]);
        }
      } else {
        log.warn(
            "shard {}: rebuild lock expired before the rebuild finished; another node redoes it",
            s);
      }
    }
    if (restoredIntoProvisional > 0) {
      log.warn(
          "Redis had lost its data: {} jobs restored from PostgreSQL into shards scheduled on a"
              + " provisional marker; those jobs were not scheduled until now",
          restoredIntoProvisional);
    }
    return new RebuildReport(rebuilt, restored, kept);
  }

  private void release(int shard, String token) {
    releaseLock.eval(
        redis.sync(), ScriptOutputType.INTEGER, new String[] {RebuildKeys.lock(shard)}, token);
  }

  /**
   * Waits while another node rebuilds the shard: until its marker appears, or its lock is gone
   * without one (that node failed; the caller's next attempt takes over). The lock's TTL bounds it.
   */
  private void awaitMarkerOrLockRelease(int shard) {
    long deadline = System.nanoTime() + lockTtl.toNanos() * 2;
    while (!isInitialised(shard) && redis.sync().exists(RebuildKeys.lock(shard)) == 1) {
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(
            "shard " + shard + " still not initialised after " + lockTtl.multipliedBy(2));
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted waiting for shard " + shard, e);
      }
    }
  }

  /** Restores the shard's jobs; returns {restored, kept}. */
  private int[] rebuild(int shard, long createdBefore) throws SQLException {
    if (!migrated) {
      // The rebuild may be the first use of PostgreSQL on a new deployment.
      try {
        migrator.migrate();
      } catch (org.flywaydb.core.api.FlywayException e) {
        throw new SQLException("schema migration failed: " + e.getMessage(), e);
      }
      migrated = true;
    }
    long now = clock.nowMs();
    int restored = 0;
    int kept = 0;
    String[] keys = {
      null,
      RedisKeys.due(shard),
      RedisKeys.jobIds(shard),
      RedisKeys.enabledApps(shard),
      RedisKeys.appJobIds(shard)
    };
    List<StoredJob> jobs = load(shard, createdBefore);
    // Pipelined: a chunk's restores go out together and are awaited together, so a shard costs a
    // round trip per chunk, not per job (RebuildAtScaleIT, 50,000 jobs on a 3-master Redis Cluster:
    // 11.1 s one at a time, 3.4 s pipelined).
    for (int from = 0; from < jobs.size(); from += RESTORE_CHUNK) {
      List<CompletableFuture<Long>> chunk = new ArrayList<>(RESTORE_CHUNK);
      for (StoredJob job : jobs.subList(from, Math.min(jobs.size(), from + RESTORE_CHUNK))) {
        OptionalLong next = RestoredNextFire.compute(job.hash(), job.lastFireMs(), now);
        List<String> args = new ArrayList<>(2 + 2 * job.hash().size());
        args.add(job.id());
        args.add(next.isPresent() ? Long.toString(next.getAsLong()) : "");
        job.hash()
            .forEach(
                (field, value) -> {
                  args.add(field);
                  args.add(value);
                });
        String[] jobKeys = keys.clone();
        jobKeys[0] = RedisKeys.job(shard, job.id());
        chunk.add(
            restoreJob
                .<Long>evalAsync(
                    redis.async(), ScriptOutputType.INTEGER, jobKeys, args.toArray(String[]::new))
                .toCompletableFuture());
      }
      for (CompletableFuture<Long> done : chunk) {
        if (awaitRestore(done, shard) == 1) {
          restored++;
        } else {
          kept++;
        }
      }
    }
    return new int[] {restored, kept};
  }

  private long awaitRestore(CompletableFuture<Long> restore, int shard) {
    try {
      // Lettuce times the command out first (its command timeout); this bound is only a backstop.
      return restore.get(lockTtl.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted restoring shard " + shard, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw cause instanceof RuntimeException runtime
          ? runtime
          : new IllegalStateException("restoring a job of shard " + shard + " failed", cause);
    } catch (TimeoutException e) {
      throw new IllegalStateException("restoring a job of shard " + shard + " got no answer", e);
    }
  }

  List<StoredJob> load(int shard, long createdBefore) throws SQLException {
    List<StoredJob> jobs = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(LIVE_JOBS)) {
      ps.setInt(1, shard);
      ps.setLong(2, createdBefore);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Map<String, String> hash = new LinkedHashMap<>();
          hash.put(JobFields.ID, rs.getString("job_id"));
          put(hash, JobFields.APP, rs.getString("app"));
          put(hash, JobFields.HANDLER, rs.getString("handler"));
          put(hash, JobFields.SCHEDULE_TYPE, rs.getString("schedule_type"));
          put(hash, JobFields.SCHEDULE, rs.getString("schedule"));
          put(hash, JobFields.ZONE, rs.getString("zone"));
          put(hash, JobFields.PARAMS, rs.getString("params"));
          put(hash, JobFields.ROUTING, rs.getString("routing"));
          put(hash, JobFields.BLOCK, rs.getString("block"));
          put(hash, JobFields.TIMEOUT_MS, rs.getString("timeout_ms"));
          put(hash, JobFields.RETRY_COUNT, rs.getString("retry_count"));
          put(hash, JobFields.RETRY_BACKOFF, rs.getString("retry_backoff"));
          put(hash, JobFields.MISFIRE, rs.getString("misfire"));
          put(hash, JobFields.MISFIRE_THRESHOLD_MS, rs.getString("misfire_threshold_ms"));
          put(hash, JobFields.ENABLED, Boolean.toString(rs.getBoolean("enabled")));
          put(hash, JobFields.SCHEDULE_VERSION, rs.getString("schedule_version"));
          put(hash, JobFields.VERSION, rs.getString("version"));
          put(hash, JobFields.CREATED_MS, rs.getString("created_ms"));
          put(hash, JobFields.UPDATED_MS, rs.getString("updated_ms"));
          put(hash, JobFields.CHILD_JOB_IDS, rs.getString("child_job_ids"));
          put(hash, JobFields.CRON_DIALECT, rs.getString("cron_dialect"));
          put(hash, JobFields.DESCRIPTION, rs.getString("description"));
          put(hash, JobFields.OWNER, rs.getString("owner"));
          put(hash, JobFields.ALARM_EMAILS, rs.getString("alarm_emails"));
          put(hash, JobFields.ALARM_WEBHOOKS, rs.getString("alarm_webhooks"));
          put(hash, JobFields.CALENDARS, rs.getString("calendars"));
          put(hash, JobFields.LATENESS_OBJECTIVE, rs.getString("lateness_objective"));
          Long lastFire = rs.getObject("last_fire_ms", Long.class);
          if (lastFire != null) {
            hash.put(JobFields.LAST_FIRE_MS, lastFire.toString());
          }
          jobs.add(new StoredJob(hash.get(JobFields.ID), shard, hash, lastFire));
        }
      }
    }
    return jobs;
  }

  private static void put(Map<String, String> hash, String field, String value) {
    if (value != null) {
      hash.put(field, value);
    }
  }
}
