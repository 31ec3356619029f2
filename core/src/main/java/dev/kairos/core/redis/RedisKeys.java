package dev.kairos.core.redis;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * The Redis key layout. Every key of shard {@code s} carries the hash tag {@code {s}} so one Lua
 * script can touch all of them atomically on Redis Cluster. No key is ever found by KEYS or SCAN:
 * per-shard sets name what exists.
 */
public final class RedisKeys {

  public static final String PREFIX = "kairos:";
  public static final int DEFAULT_SHARDS = 64;

  /**
   * Safety cap of each shard's events stream ({@code XADD MAXLEN ~}). persistence-sync trims what
   * it has acknowledged, so in normal operation a stream holds only the sync lag; the cap exists so
   * that a long PostgreSQL outage fills Redis memory only up to a bound instead of taking the
   * scheduler down. Past it, the oldest un-synced events are trimmed: history is lost, scheduling
   * is not. Outage tolerated = cap / per-shard event rate (about 4 events per fire): at 10k fires/s
   * over 64 shards, one million entries last about 27 minutes.
   */
  public static final long DEFAULT_EVENTS_MAX_LEN = 1_000_000;

  /** Cluster-wide metadata (shard count, initialised marker); its own hash tag. */
  public static final String META = "kairos:{meta}";

  /**
   * Every node reads cluster time with {@code TIME} on the master that owns this key's slot: one
   * reference clock for the whole cluster, never a mix of masters.
   */
  public static final String CLOCK_REFERENCE = "kairos:{clock}";

  private final int shards;

  public RedisKeys(int shards) {
    if (shards < 1 || shards > 16384) {
      throw new IllegalArgumentException("shards must be in 1..16384 but was " + shards);
    }
    this.shards = shards;
  }

  public int shards() {
    return shards;
  }

  /** Stable shard of a job id (CRC32 of its UTF-8 bytes). */
  public int shardOf(String jobId) {
    CRC32 crc = new CRC32();
    crc.update(jobId.getBytes(StandardCharsets.UTF_8));
    return (int) (crc.getValue() % shards);
  }

  private static String tag(int shard) {
    return PREFIX + "{" + shard + "}:";
  }

  /** ZSET: member = job id, score = next fire time in epoch ms; parked jobs score +inf. */
  public static String due(int shard) {
    return tag(shard) + "due";
  }

  /** HASH: the job definition plus runtime fields, see {@link JobFields}. */
  public static String job(int shard, String jobId) {
    return tag(shard) + "job:" + jobId;
  }

  /**
   * ZSET, every score 0: the id of every job of the shard, enabled or not, in byte order. Lists
   * read it with {@code ZRANGEBYLEX} from a cursor, so a page costs a few ids per shard instead of
   * a read of every job ({@code JobIndex}); {@code ZCARD} counts the shard's jobs. Kept by the job
   * scripts in the same call as the job. Replaces the unordered {@link #legacyJobIndex} SET.
   */
  public static String jobIds(int shard) {
    return tag(shard) + "ids";
  }

  /**
   * ZSET, every score 0: {@code <app>:<id>} of every job of the shard, so one app's jobs are one
   * lex range ({@code [<app>: (<app>;}) in id order. An app name has no {@code :}, so the first one
   * separates app and id. Kept by the job scripts beside {@link #jobIds}.
   */
  public static String appJobIds(int shard) {
    return tag(shard) + "appids";
  }

  /**
   * SET: the unordered job index written by versions before {@link #jobIds}. A node folds it into
   * the ordered indexes at start and it disappears ({@code JobIndexRepair}); only an older node
   * still writes it, during a rolling upgrade.
   */
  public static String legacyJobIndex(int shard) {
    return tag(shard) + "jobs";
  }

  /**
   * HASH: executor app name -> number of enabled jobs of the shard that name it. Maintained by
   * every script that creates, deletes, enables, disables or updates a job (and by the rebuild), so
   * "which apps have enabled jobs" is one small read per shard instead of a scan of all jobs.
   */
  public static String enabledApps(int shard) {
    return tag(shard) + "apps";
  }

  /** Prefix of job hashes in a shard, for scripts that build the key from a job id. */
  public static String jobPrefix(int shard) {
    return tag(shard) + "job:";
  }

  /** ZSET: member = trigger id, score = fire time; the node's persisted wheel. */
  public static String wheel(int shard, String node) {
    return tag(shard) + "wheel:" + node;
  }

  /** ZSET: member = trigger id, score = time it was taken off the wheel; being dispatched. */
  public static String inflight(int shard, String node) {
    return tag(shard) + "inflight:" + node;
  }

  /** STRING: the highest leader term that has written to this shard. */
  public static String fence(int shard) {
    return tag(shard) + "fence";
  }

  /** STREAM: change events of jobs and triggers, read by persistence-sync. */
  public static String events(int shard) {
    return tag(shard) + "events";
  }

  /** SET: node names that own wheel or inflight keys in this shard (failover needs no SCAN). */
  public static String nodes(int shard) {
    return tag(shard) + "nodes";
  }

  /**
   * HASH: one trigger's record (state, timestamps, executor), see {@code
   * dev.kairos.protocol.record.TriggerFields}.
   */
  public static String trigger(int shard, String triggerId) {
    return tag(shard) + "trigger:" + triggerId;
  }

  /** Prefix of trigger hashes in a shard, for scripts that build the key from a trigger id. */
  public static String triggerPrefix(int shard) {
    return tag(shard) + "trigger:";
  }

  /**
   * Width of one tombstone bucket ({@link #ended}): a scheduled trigger's tombstone lives in the
   * bucket of its fire time. Small enough that a bucket of a busy shard stays a listpack (compact:
   * about 40 bytes per trigger), large enough that a shard has few bucket keys.
   */
  public static final long ENDED_BUCKET_MS = 10_000;

  /**
   * HASH: tombstones of one shard's scheduled triggers that ended in SUCCESS and whose history
   * PostgreSQL already holds, field = trigger id, value = final state, for the fires of one {@link
   * #ENDED_BUCKET_MS} bucket ({@code fireMs / ENDED_BUCKET_MS}). The full record is deleted once
   * its history is synced; the tombstone is what the once-only checks need until the bucket
   * expires, at its end + the dedup window.
   */
  public static String ended(int shard, long fireMs) {
    return endedPrefix(shard) + Math.floorDiv(fireMs, ENDED_BUCKET_MS);
  }

  /** Prefix of a shard's tombstone buckets, for scripts that build the key from a fire time. */
  public static String endedPrefix(int shard) {
    return tag(shard) + "ended:";
  }

  /**
   * ZSET: the shard's open triggers, member = trigger id, score = time of the last dispatch or of
   * the start. A trigger enters when it becomes DISPATCHED ({@code ack_dispatched.lua}), is
   * re-scored when it starts ({@code claim_start.lua}) and leaves on every final state, so the
   * lost-trigger monitor finds DISPATCHED and RUNNING triggers without SCAN.
   */
  public static String openTriggers(int shard) {
    return tag(shard) + "open";
  }

  /**
   * ZSET: the handler log of one trigger, member = {@code LogLine.encode()}, score = the line's
   * sequence number (from 1), so a page after a cursor is one {@code ZRANGEBYSCORE} and a replayed
   * append is idempotent. In the trigger's shard (its hash tag), capped by the executor and kept
   * with a TTL; PostgreSQL keeps the history ({@code kairos_trigger_log}).
   */
  public static String triggerLog(int shard, String triggerId) {
    return tag(shard) + "triggerlog:" + triggerId;
  }

  /**
   * ZSET: a job's recent trigger ids scored by fire time (bounded; history lives in PostgreSQL).
   */
  public static String jobTriggers(int shard, String jobId) {
    return tag(shard) + "jobtriggers:" + jobId;
  }

  /**
   * ZSET: ad-hoc triggers (manual, retry, child) waiting to be claimed; member = trigger id, score
   * = due time in epoch ms. The leader's scan claims the due ones into node wheels.
   */
  public static String adhoc(int shard) {
    return tag(shard) + "adhoc";
  }

  /**
   * HASH: the request of one ad-hoc trigger until it is claimed, see protocol's {@code
   * AdhocTriggers}.
   */
  public static String adhocRequest(int shard, String triggerId) {
    return adhocRequestPrefix(shard) + triggerId;
  }

  /** Prefix of ad-hoc request hashes, for scripts that build the key from a trigger id. */
  public static String adhocRequestPrefix(int shard) {
    return tag(shard) + "adhocreq:";
  }

  /**
   * ZSET under the app's own hash tag: trigger ids an operator asked to cancel, scored by the
   * request time. Every executor of the app polls it and interrupts the runs it hosts.
   */
  public static String cancels(String app) {
    return PREFIX + "{app:" + app + "}:cancels";
  }

  /**
   * HASH: the cluster-wide de-duplication window of one alarm key (fields {@code openedMs}, {@code
   * suppressed}), see {@code alarm_window.lua}. Every alarm key shares the hash tag {@code
   * {alarm}}: alarms are rare, and one slot keeps the script on one master.
   */
  public static String alarmWindow(String alarmKey) {
    return PREFIX + "{alarm}:window:" + alarmKey;
  }

  /**
   * HASH: the settings of one executor app ({@code description}, {@code defaultRouting}, {@code
   * updatedMs}; {@code put_app_settings.lua}), under the app's own hash tag like its slot leases.
   */
  public static String appSettings(String app) {
    return PREFIX + "{app:" + app + "}:settings";
  }

  /**
   * HASH: the API tokens created at runtime, field = SHA-256 (hex) of the token, value = the
   * token's JSON record (never the token). Its own hash tag, so a Redis ACL can give nodes this key
   * and executors none of it.
   */
  public static String apiTokens() {
    return PREFIX + "{tokens}:by-hash";
  }

  /**
   * HASH: the console's local users, field = user name, value = the user's JSON record (role, apps,
   * PBKDF2 password hash). Its own hash tag, like the tokens.
   */
  public static String localUsers() {
    return PREFIX + "{users}:by-name";
  }

  /** HASH: field = runtime token id, value = epoch ms it last authenticated a request. */
  public static String apiTokensLastUsed() {
    return PREFIX + "{tokens}:last-used";
  }

  /**
   * Default cap of the audit stream ({@link #auditLog()}, {@code XADD MAXLEN ~}): the entries a
   * PostgreSQL outage may leave waiting before the oldest are lost.
   */
  public static final long DEFAULT_AUDIT_MAX_LEN = 100_000;

  /**
   * STREAM: the audit trail of writes through the admin API, one entry per change (the audit
   * module's {@code AuditEntry}), appended by the node that made the change and copied to
   * PostgreSQL ({@code kairos_audit}) by the audit consumer group, which trims what it has written.
   * Its own hash tag: one stream for the cluster, on one master.
   */
  public static String auditLog() {
    return PREFIX + "{audit}:log";
  }

  /**
   * HASH: the calendars of the cluster, field = calendar name, value = its JSON ({@code
   * CalendarDefinition}). Cluster-wide, under its own hash tag with {@link #calendarsVersion()}.
   */
  public static String calendars() {
    return PREFIX + "{cal}:defs";
  }

  /**
   * STRING: a counter bumped by every calendar write or delete ({@code put_calendar.lua}, {@code
   * delete_calendar.lua}); the leader's scan reloads its calendars when it moves.
   */
  public static String calendarsVersion() {
    return PREFIX + "{cal}:version";
  }

  /** HASH: executor slot leases of one app, all under the app's own hash tag. */
  public static String slots(String app) {
    return PREFIX + "{app:" + app + "}:slots";
  }
}
