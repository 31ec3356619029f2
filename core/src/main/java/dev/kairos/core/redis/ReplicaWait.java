package dev.kairos.core.redis;

import dev.kairos.core.log.LogThrottle;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code WAIT numreplicas timeout} after a script that commits a claim (the leader's fire claims,
 * an executor's start claims), so that a master lost right after it has, with high likelihood,
 * already copied the claim to a replica that takes over. Redis replication is asynchronous: without
 * it, a failover can undo the last claims, and a fire is claimed again (a re-fire, which the start
 * claim absorbs) or, worse, a start claim vanishes and a re-sent copy starts a second time. One
 * WAIT per script call, never per fire: the scripts batch, and so does this.
 *
 * <p>WAIT counts the replicas that acknowledged every write the <em>same client connection</em>
 * sent before it, so it goes to the master that owns the written key's slot, on the connection that
 * carried the script ({@link Acks}).
 *
 * <p>Three outcomes ({@link Ack}). <b>Fewer replicas than asked is not an error: the write
 * proceeds.</b> The claim has already committed on the master and cannot be taken back, and
 * refusing to start handlers or claim fires while a replica is down would turn a replica outage
 * into a scheduling outage. The shortfall is counted ({@link #unacknowledged()}), logged at most
 * once per {@link #LOG_INTERVAL}, and the master is not asked again for {@link #backoff()}: a
 * master without a replica would otherwise hold the connection for the whole WAIT timeout on every
 * batch (WAIT blocks the client, and every command pipelined behind it). Writes in that back-off
 * are counted as unacknowledged too. A WAIT that <em>fails</em> (the connection to the master
 * dropped, the master is gone) is different: the write may have died with the master before any
 * replica saw it, so the caller treats the claim as unanswered and resolves it the way it resolves
 * a lost script reply (the executor claims again and reads back whose claim stands; the scanner
 * leaves the batch to the next pass).
 *
 * <p>Thread-safe: called from Redis reply threads of many shards at once.
 */
public final class ReplicaWait {

  private static final Logger log = LoggerFactory.getLogger(ReplicaWait.class);

  public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(100);

  /** Between two warnings about unacknowledged writes. */
  static final Duration LOG_INTERVAL = Duration.ofSeconds(10);

  /** The shortest back-off after a shortfall; longer when the WAIT timeout is long. */
  static final Duration MIN_BACKOFF = Duration.ofSeconds(1);

  /** What a WAIT after a claim write found. */
  public enum Ack {
    /** The policy's replicas acknowledged (or the policy is off). */
    ACKNOWLEDGED,
    /** Fewer replicas acknowledged within the timeout, or the master is backed off: proceed. */
    UNACKNOWLEDGED,
    /** The WAIT failed: the master may be gone, and the write with it. */
    FAILED
  }

  /** Sends WAIT to the master that owns a key's slot, on the connection that wrote it. */
  public interface Acks {

    /** The master that owns {@code key}'s slot ({@code host:port}), or null when none is known. */
    String masterOf(String key);

    /** {@code WAIT replicas timeoutMs} on {@code master}: the replicas that acknowledged. */
    CompletionStage<Long> await(String master, int replicas, long timeoutMs);
  }

  /**
   * @param replicas replicas that must acknowledge a claim; 0 sends no WAIT at all
   * @param timeout how long one WAIT may block
   */
  public record Policy(int replicas, Duration timeout) {

    public static final Policy OFF = new Policy(0, DEFAULT_TIMEOUT);

    public Policy {
      if (replicas < 0) {
        throw new IllegalArgumentException("wait-replicas must be >= 0 but was " + replicas);
      }
      if (timeout == null || timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("wait-timeout must be positive but was " + timeout);
      }
    }

    public boolean enabled() {
      return replicas > 0;
    }
  }

  private final Policy policy;
  private final Acks acks;
  private final LongSupplier nanoTime;
  private final long backoffNanos;
  private final Map<String, Long> backoffUntil = new ConcurrentHashMap<>();
  private final LongAdder waits = new LongAdder();
  private final LongAdder unacknowledged = new LongAdder();
  private final LongAdder failed = new LongAdder();
  private final LogThrottle warnings;

  public ReplicaWait(Policy policy, Acks acks, LongSupplier nanoTime) {
    this.policy = policy;
    this.acks = acks;
    this.nanoTime = nanoTime;
    this.backoffNanos = Math.max(MIN_BACKOFF.toNanos(), policy.timeout().toNanos() * 10);
    this.warnings = new LogThrottle(LOG_INTERVAL, nanoTime);
  }

  public Policy policy() {
    return policy;
  }

  Duration backoff() {
    return Duration.ofNanos(backoffNanos);
  }

  /**
   * Waits for the policy's replicas after a write of {@code key}'s slot (ACKNOWLEDGED at once when
   * the policy is off). The stage never fails: a Redis error is {@link Ack#FAILED}.
   */
  public CompletionStage<Ack> afterWrite(String key) {
    if (!policy.enabled()) {
      return CompletableFuture.completedFuture(Ack.ACKNOWLEDGED);
    }
    String master = acks.masterOf(key);
    if (master == null) {
      return CompletableFuture.completedFuture(
          shortfall("?", -1, "no master known for the key's slot", Ack.FAILED));
    }
    Long until = backoffUntil.get(master);
    if (until != null && nanoTime.getAsLong() - until < 0) {
      unacknowledged.increment();
      return CompletableFuture.completedFuture(Ack.UNACKNOWLEDGED);
    }
    waits.increment();
    CompletionStage<Long> acked;
    try {
      acked = acks.await(master, policy.replicas(), policy.timeout().toMillis());
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(shortfall(master, -1, e.toString(), Ack.FAILED));
    }
    return acked.handle(
        (count, error) -> {
          if (error != null) {
            return shortfall(master, -1, error.toString(), Ack.FAILED);
          }
          if (count < policy.replicas()) {
            return shortfall(master, count, "timed out", Ack.UNACKNOWLEDGED);
          }
          backoffUntil.remove(master);
          return Ack.ACKNOWLEDGED;
        });
  }

  /** WAIT commands sent. */
  public long waits() {
    return waits.sum();
  }

  /**
   * Claim writes without the policy's acknowledgement: a WAIT that came back short or failed, or a
   * write in a master's back-off after one.
   */
  public long unacknowledged() {
    return unacknowledged.sum();
  }

  /** WAITs that failed (connection lost, master gone): the caller resolved the claim again. */
  public long failed() {
    return failed.sum();
  }

  private Ack shortfall(String master, long acked, String why, Ack ack) {
    unacknowledged.increment();
    if (ack == Ack.FAILED) {
      failed.increment();
    }
    long now = nanoTime.getAsLong();
    backoffUntil.put(master, now + backoffNanos);
    long since = warnings.record(1);
    if (since > 0) {
      log.warn(
          "WAIT {} {} ms on master {}: {} replicas acknowledged ({}); {} shortfall(s) since the"
              + " last warning. Claims written meanwhile proceed unacknowledged and a failover may"
              + " undo them (re-fires, duplicate starts); not asking that master again for {} ms",
          policy.replicas(),
          policy.timeout().toMillis(),
          master,
          acked < 0 ? "no" : acked,
          why,
          since,
          backoff().toMillis());
    }
    return ack;
  }
}
