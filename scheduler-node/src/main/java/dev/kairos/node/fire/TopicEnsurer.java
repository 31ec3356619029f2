package dev.kairos.node.fire;

import dev.kairos.core.error.KairosException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Creates a handler topic before its first send, once per topic per process: the set of topics
 * known to exist is kept in memory, so only the first fire of a handler pays for the creation (the
 * admin round trips and the wait for the NameServer route). A failed creation is remembered for
 * {@code retryAfter}: until then fires of that handler fail at once instead of each paying for
 * another attempt (they stay inflight and are re-sent). Thread-safe.
 */
public final class TopicEnsurer {

  private final Consumer<String> create;
  private final long retryAfterNanos;
  private final LongSupplier nanos;
  private final Set<String> known = ConcurrentHashMap.newKeySet();
  private final Map<String, Long> failedAt = new ConcurrentHashMap<>();

  /**
   * @param create makes sure the topic exists (blocking), e.g. {@code TopicAdmin.ensureTopic}
   * @param retryAfter how long a failed creation is not retried
   */
  public TopicEnsurer(Consumer<String> create, Duration retryAfter, LongSupplier nanos) {
    this.create = Objects.requireNonNull(create, "create");
    this.retryAfterNanos = retryAfter.toNanos();
    this.nanos = Objects.requireNonNull(nanos, "nanos");
  }

  /**
   * Returns at once for a known topic; otherwise creates it, blocking the caller.
   *
   * @throws KairosException when the creation failed now or within the last {@code retryAfter}
   */
  public void ensure(String topic) {
    if (known.contains(topic)) {
      return;
    }
    Long failed = failedAt.get(topic);
    if (failed != null && nanos.getAsLong() - failed < retryAfterNanos) {
      throw new KairosException(
          "topic " + topic + " could not be created recently; retrying later");
    }
    try {
      create.accept(topic);
    } catch (RuntimeException e) {
      failedAt.put(topic, nanos.getAsLong());
      throw e;
    }
    failedAt.remove(topic);
    known.add(topic);
  }

  public boolean isKnown(String topic) {
    return known.contains(topic);
  }
}
