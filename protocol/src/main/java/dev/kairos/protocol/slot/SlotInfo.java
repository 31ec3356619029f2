package dev.kairos.protocol.slot;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One slot lease as stored in the app's slot hash ({@code RedisKeys.slots(app)}, field = slot).
 *
 * @param instanceId the executor instance holding the slot
 * @param host where it runs (informational)
 * @param handlers the handlers it consumes
 * @param slot the slot index; the instance consumes queue {@code slot} of every handler topic
 * @param lastRenewalMs Redis time of the last successful claim or renewal
 * @param expiresMs Redis time after which the slot is free
 * @param busy whether the executor reported itself busy at its last renewal (BUSYOVER routing)
 * @param progress per hosted handler, the executor's received-through time in epoch ms: every
 *     message sent to this slot's queue of the handler's topic before it has been received (see
 *     executor-mq's {@code SlotLease#receivedThrough}). Empty when the lease carries none (an
 *     executor older than this field); a handler missing from it is unknown, not "nothing received"
 */
public record SlotInfo(
    String instanceId,
    String host,
    List<String> handlers,
    int slot,
    long lastRenewalMs,
    long expiresMs,
    boolean busy,
    Map<String, Long> progress) {

  public SlotInfo {
    handlers = List.copyOf(handlers);
    progress = Map.copyOf(progress);
  }

  /** A lease without receive progress, as an executor older than that field writes it. */
  public SlotInfo(
      String instanceId,
      String host,
      List<String> handlers,
      int slot,
      long lastRenewalMs,
      long expiresMs,
      boolean busy) {
    this(instanceId, host, handlers, slot, lastRenewalMs, expiresMs, busy, Map.of());
  }

  public boolean hosts(String handler) {
    return handlers.contains(handler);
  }

  /**
   * The time through which this slot's executor has received {@code handler}'s queue, or empty when
   * the lease does not say (then nothing can be concluded about that queue).
   */
  public OptionalLong receivedThrough(String handler) {
    Long ms = progress.get(handler);
    return ms == null ? OptionalLong.empty() : OptionalLong.of(ms);
  }
}
