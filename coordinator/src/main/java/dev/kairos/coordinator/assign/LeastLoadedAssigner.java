package dev.kairos.coordinator.assign;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Each fire goes to the node with the fewest wheel entries: sizes are read once per scan pass and
 * then counted up locally as fires are assigned (ties go to the earlier node in the list).
 */
public final class LeastLoadedAssigner implements FireAssigner {

  private final WheelLoad load;

  public LeastLoadedAssigner(WheelLoad load) {
    this.load = load;
  }

  @Override
  public NodePicker forPass(List<String> liveNodes) {
    List<String> nodes = List.copyOf(liveNodes);
    Map<String, Long> sizes = new HashMap<>(load.entriesPerNode(nodes));
    long[] counts = new long[nodes.size()];
    for (int i = 0; i < nodes.size(); i++) {
      counts[i] = sizes.getOrDefault(nodes.get(i), 0L);
    }
    return (jobId, fireMs) -> {
      // Safety: pickers are shared by the shards' scan tasks; the counts change under this lock.
      synchronized (counts) {
        int best = 0;
        for (int i = 1; i < counts.length; i++) {
          if (counts[i] < counts[best]) {
            best = i;
          }
        }
        counts[best]++;
        return nodes.get(best);
      }
    };
  }
}
