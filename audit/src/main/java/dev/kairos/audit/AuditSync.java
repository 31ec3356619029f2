package dev.kairos.audit;

import dev.kairos.core.lifecycle.Lifecycle;
import dev.kairos.core.lifecycle.LoopThread;
import dev.kairos.core.redis.ConsumerGroups;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.sync.event.StreamId;
import dev.kairos.sync.worker.Backoff;
import io.lettuce.core.Consumer;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.XTrimArgs;
import io.lettuce.core.models.stream.ClaimedMessages;
import io.lettuce.core.models.stream.PendingMessages;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies the audit stream into PostgreSQL ({@code kairos_audit}).
 *
 * <p>Every node runs one as its own consumer of the group {@value #GROUP}, so each entry is
 * delivered to one node, and a node's death costs nothing: what it read and did not acknowledge
 * stays pending and another node takes it over (XAUTOCLAIM) once idle for {@link
 * Settings#claimIdle()}. A round reads up to a batch, inserts it in one transaction, and only then
 * acknowledges (XACK); the insert is keyed by the entry id, so a replay writes nothing twice. Then
 * it trims what the group has acknowledged (XTRIM MINID below the oldest pending entry), so the
 * stream holds only what PostgreSQL does not have yet, up to its cap.
 *
 * <p>PostgreSQL is never on the API's path: this starts whatever the database does, migrates the
 * schema when it first reaches it, and backs off while it (or Redis) does not answer; entries wait
 * in the stream meanwhile.
 *
 * <p>Threads: one thread named {@code kairos-audit-sync}; only it touches the fields below the
 * lifecycle.
 */
public final class AuditSync implements AutoCloseable {

  /** The consumer group every node's consumer belongs to. */
  public static final String GROUP = "kairos-audit";

  public static final String SYNCED = "kairos.audit.synced";
  public static final String SYNC_FAILURES = "kairos.audit.sync.failures";

  private static final Logger log = LoggerFactory.getLogger(AuditSync.class);

  /** Rounds of XAUTOCLAIM per claim pass; each takes up to a batch. */
  private static final int MAX_CLAIM_ROUNDS = 100;

  /**
   * How the consumer runs.
   *
   * @param consumer this node's consumer name (the node name)
   * @param batchSize entries read and inserted per round
   * @param pollInterval pause after a round that found nothing
   * @param claimIdle a pending entry idle this long belongs to a dead consumer and is taken over
   * @param retryInitial first pause after a failed round, doubling up to {@code retryMax}
   */
  public record Settings(
      String consumer,
      int batchSize,
      Duration pollInterval,
      Duration claimIdle,
      Duration retryInitial,
      Duration retryMax) {

    public Settings {
      Objects.requireNonNull(consumer, "consumer");
      if (batchSize < 1) {
        throw new IllegalArgumentException("batchSize must be >= 1 but was " + batchSize);
      }
    }
  }

  private final Lifecycle lifecycle = new Lifecycle("audit sync");
  private final KairosRedis redis;
  private final AuditSchema schema;
  private final AuditTable table;
  private final Settings settings;
  private final Consumer<String> me;
  private final Backoff backoff;
  private final Counter synced;
  private final Counter failures;
  private volatile LoopThread thread;

  // Only the worker thread touches these.
  private boolean groupReady;
  private boolean readOwnPending = true;
  private long nextClaimAtMs;

  public AuditSync(
      KairosRedis redis,
      AuditSchema schema,
      AuditTable table,
      Settings settings,
      MeterRegistry meters) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.schema = Objects.requireNonNull(schema, "schema");
    this.table = Objects.requireNonNull(table, "table");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.me = Consumer.from(GROUP, settings.consumer());
    this.backoff = new Backoff(settings.retryInitial(), settings.retryMax());
    this.synced =
        Counter.builder(SYNCED).description("audit entries written to PostgreSQL").register(meters);
    this.failures =
        Counter.builder(SYNC_FAILURES)
            .description("audit sync rounds that failed (PostgreSQL or Redis did not answer)")
            .register(meters);
  }

  /** Starts the thread; returns at once (PostgreSQL is not contacted here). */
  public void start() {
    lifecycle.start();
    thread = LoopThread.start("kairos-audit-sync", this::run);
  }

  @Override
  public void close() {
    if (!lifecycle.close()) {
      return;
    }
    LoopThread t = thread;
    if (t != null) {
      t.close();
    }
  }

  private void run() {
    log.info("audit sync {} started (group {})", settings.consumer(), GROUP);
    while (lifecycle.isStarted() && !Thread.currentThread().isInterrupted()) {
      try {
        int written = step();
        backoff.reset();
        if (written < settings.batchSize()) {
          Thread.sleep(settings.pollInterval().toMillis());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (SQLException | RuntimeException e) {
        if (!lifecycle.isStarted()) {
          break; // close() interrupted a call in flight: not a failure
        }
        failures.increment();
        pause(e);
      }
    }
    log.info("audit sync {} stopped", settings.consumer());
  }

  private void pause(Exception e) {
    // Whatever was read and not acknowledged is pending to this consumer: read it again first.
    readOwnPending = true;
    if (ConsumerGroups.isNoGroup(e)) {
      groupReady = false; // the stream went (a Redis that lost its data): create it again
    }
    long delay = backoff.next();
    log.warn(
        "audit sync round failed ({}: {}); will keep running, retrying in {} ms",
        e.getClass().getSimpleName(),
        e.getMessage(),
        delay);
    try {
      Thread.sleep(delay);
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
    }
  }

  /** One round; returns how many entries it wrote (or acknowledged as lost). */
  int step() throws SQLException {
    schema.ensure();
    if (!groupReady) {
      ConsumerGroups.create(redis, RedisKeys.auditLog(), GROUP);
      groupReady = true;
    }
    long now = System.currentTimeMillis();
    if (now >= nextClaimAtMs) {
      claimIdle();
      nextClaimAtMs = now + Math.max(1_000, settings.claimIdle().toMillis() / 2);
    }
    List<StreamMessage<String, String>> messages = read(readOwnPending ? "0" : null);
    if (readOwnPending && messages.isEmpty()) {
      readOwnPending = false;
      messages = read(null);
    }
    if (messages.isEmpty()) {
      return 0;
    }
    List<AuditRecord> records = new ArrayList<>(messages.size());
    List<String> ids = new ArrayList<>(messages.size());
    for (StreamMessage<String, String> m : messages) {
      ids.add(m.getId());
      StreamId id = StreamId.parse(m.getId());
      Map<String, String> body = m.getBody();
      if (body == null || body.isEmpty()) {
        // Pending, but trimmed away by the cap before it was written: nothing left to write.
        log.warn("audit entry {} was trimmed (stream cap) before PostgreSQL had it", m.getId());
        continue;
      }
      records.add(new AuditRecord(id, AuditEntry.fromFields(id.ms(), body)));
    }
    table.insert(records);
    // Safety: acknowledge only after the commit; a crash before this replays the entries.
    redis.sync().xack(RedisKeys.auditLog(), GROUP, ids.toArray(String[]::new));
    synced.increment(records.size());
    trim(StreamId.parse(ids.get(ids.size() - 1)));
    return messages.size();
  }

  /** Own pending entries (from {@code "0"}) or new ones ({@code null}: {@code ">"}). */
  private List<StreamMessage<String, String>> read(String from) {
    XReadArgs.StreamOffset<String> offset =
        from == null
            ? XReadArgs.StreamOffset.lastConsumed(RedisKeys.auditLog())
            : XReadArgs.StreamOffset.from(RedisKeys.auditLog(), from);
    List<StreamMessage<String, String>> read =
        redis.sync().xreadgroup(me, XReadArgs.Builder.count(settings.batchSize()), offset);
    return read == null ? List.of() : read;
  }

  /** Takes over entries another consumer read and never acknowledged (a node that died). */
  private void claimIdle() {
    String start = "0-0";
    int rounds = 0;
    do {
      ClaimedMessages<String, String> claimed =
          redis
              .sync()
              .xautoclaim(
                  RedisKeys.auditLog(),
                  XAutoClaimArgs.Builder.justid(me, settings.claimIdle(), start)
                      .count(settings.batchSize()));
      if (!claimed.getMessages().isEmpty()) {
        readOwnPending = true;
        log.info(
            "took over {} idle audit entries from dead consumers", claimed.getMessages().size());
      }
      start = claimed.getId();
    } while (!"0-0".equals(start) && ++rounds < MAX_CLAIM_ROUNDS);
  }

  /**
   * Trims what the group has acknowledged: below its oldest pending entry, or past {@code
   * lastAcked} when nothing is pending. Safety: an entry not delivered yet has an id above every
   * delivered one, {@code lastAcked} included, so neither bound reaches it.
   */
  private void trim(StreamId lastAcked) {
    PendingMessages pending = redis.sync().xpending(RedisKeys.auditLog(), GROUP);
    StreamId below =
        pending.getCount() > 0
            ? StreamId.parse(pending.getMessageIds().getLower().getValue())
            : lastAcked.next();
    redis.sync().xtrim(RedisKeys.auditLog(), XTrimArgs.Builder.minId(below.toString()));
  }
}
