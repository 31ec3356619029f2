package dev.kairos.protocol.failover;

import dev.kairos.protocol.wheel.WheelEntry;
import java.util.List;
import java.util.Map;

/**
 * What moving a dead node's entries did.
 *
 * @param moved per target node, the entries now on its wheel
 * @param staleDropped entries dropped as DROPPED_STALE instead of moved
 */
public record MoveReport(String deadNode, Map<String, List<WheelEntry>> moved, int staleDropped) {

  public MoveReport {
    moved = Map.copyOf(moved);
  }

  public int movedCount() {
    return moved.values().stream().mapToInt(List::size).sum();
  }
}
