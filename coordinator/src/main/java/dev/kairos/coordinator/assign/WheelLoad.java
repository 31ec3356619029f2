package dev.kairos.coordinator.assign;

import java.util.List;
import java.util.Map;

/** How many entries each node currently holds (wheel + inflight over all shards). */
@FunctionalInterface
public interface WheelLoad {

  /** Entries per node; a node missing from the map holds none. */
  Map<String, Long> entriesPerNode(List<String> nodes);
}
