package dev.kairos.protocol.wheel;

import java.util.Collection;

/**
 * Tells a node at once that entries were added to its persisted wheel (claims, moves from a dead
 * node). Best effort: nodes also re-read their wheel periodically, so a lost notification delays
 * nothing. Implementations must not block: they are called from Redis reply threads.
 */
@FunctionalInterface
public interface WheelNotifier {

  /** Drops every notification; nodes find their entries when they re-read their wheel. */
  WheelNotifier NONE = (node, entries) -> {};

  void notifyAssigned(String node, Collection<WheelEntry> entries);
}
