package dev.kairos.node.wheel;

import java.util.Objects;

/**
 * One pending fire: the trigger id it is known by, when it must fire (epoch ms), and whatever the
 * dispatcher needs to send it (opaque to the wheel).
 */
public record WheelEntry<P>(String triggerId, long fireMs, P payload) {

  public WheelEntry {
    Objects.requireNonNull(triggerId, "triggerId");
  }
}
