package dev.kairos.core.timer;

import java.util.Objects;

/**
 * One pending fire: the trigger id it is known by, when it must fire (epoch ms), and whatever the
 * dispatcher needs to send it (opaque to the wheel).
 */
public record TimedEntry<P>(String triggerId, long fireMs, P payload) {

  public TimedEntry {
    Objects.requireNonNull(triggerId, "triggerId");
  }
}
