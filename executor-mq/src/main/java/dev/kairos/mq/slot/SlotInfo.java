package dev.kairos.mq.slot;

import java.util.List;

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
 */
public record SlotInfo(
    String instanceId,
    String host,
    List<String> handlers,
    int slot,
    long lastRenewalMs,
    long expiresMs,
    boolean busy) {

  public SlotInfo {
    handlers = List.copyOf(handlers);
  }

  public boolean hosts(String handler) {
    return handlers.contains(handler);
  }
}
