package dev.kairos.protocol.wheel;

import java.util.Objects;

/** One entry of a node's persisted wheel: a trigger id due at {@code fireMs}, in {@code shard}. */
public record WheelEntry(int shard, String triggerId, long fireMs) {
  public WheelEntry {
    Objects.requireNonNull(triggerId, "triggerId");
  }
}
