package dev.kairos.audit;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.XAddArgs;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends audit entries to the capped stream {@link RedisKeys#auditLog()} ({@code XADD MAXLEN ~}),
 * right after the change they record succeeded. The change has happened by then, so a refused or
 * unanswered XADD never fails the caller: it is logged (WARN, with the job id, never a definition,
 * which may hold secrets) and counted in {@value #APPEND_FAILURES}. PostgreSQL is not on this path:
 * {@link AuditSync} copies the stream there when it can.
 *
 * <p>Thread-safe.
 */
public final class AuditStream {

  public static final String APPEND_FAILURES = "kairos.audit.append.failures";
  public static final String APPENDED = "kairos.audit.appended";

  private static final Logger log = LoggerFactory.getLogger(AuditStream.class);

  private final KairosRedis redis;
  private final long maxLen;
  private final Counter failures;
  private final Counter appended;

  public AuditStream(KairosRedis redis, long maxLen, MeterRegistry meters) {
    if (maxLen < 1) {
      throw new IllegalArgumentException("maxLen must be >= 1 but was " + maxLen);
    }
    this.redis = Objects.requireNonNull(redis, "redis");
    this.maxLen = maxLen;
    this.failures =
        Counter.builder(APPEND_FAILURES)
            .description("audit entries Redis did not take (the change itself was made)")
            .register(meters);
    this.appended =
        Counter.builder(APPENDED).description("audit entries appended").register(meters);
  }

  /** Appends one entry; returns its stream id, or null when Redis did not take it. */
  public String append(AuditEntry entry) {
    return appendAll(List.of(entry)).get(0);
  }

  /**
   * Appends entries in one pipelined round (a batch of a thousand jobs is one round, not a thousand
   * round trips); returns their stream ids in order, null where Redis did not take one.
   */
  public List<String> appendAll(List<AuditEntry> entries) {
    XAddArgs args = XAddArgs.Builder.maxlen(maxLen).approximateTrimming();
    List<CompletableFuture<String>> sent = new ArrayList<>(entries.size());
    for (AuditEntry entry : entries) {
      try {
        sent.add(
            redis.async().xadd(RedisKeys.auditLog(), args, entry.toFields()).toCompletableFuture());
      } catch (RuntimeException e) {
        sent.add(CompletableFuture.failedFuture(e));
      }
    }
    long deadline = System.nanoTime() + redis.timeout().toNanos();
    List<String> ids = new ArrayList<>(entries.size());
    for (int i = 0; i < sent.size(); i++) {
      ids.add(await(sent.get(i), entries.get(i), deadline));
    }
    return ids;
  }

  private String await(CompletableFuture<String> reply, AuditEntry entry, long deadlineNanos) {
    try {
      String id = reply.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
      appended.increment();
      return id;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failed(entry, e);
    } catch (ExecutionException e) {
      failed(entry, e.getCause());
    } catch (TimeoutException e) {
      failed(entry, e);
    }
    return null;
  }

  private void failed(AuditEntry entry, Throwable cause) {
    failures.increment();
    log.warn(
        "audit entry {} of job {} (trigger {}) by {} not appended: {}; the change itself was made",
        entry.action(),
        entry.jobId(),
        entry.triggerId(),
        entry.actor(),
        cause.toString());
  }
}
