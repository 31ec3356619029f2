package dev.kairos.coordinator.assign;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The default strategy: a hash ring with virtual nodes keyed by job id, so all fires of a job land
 * on one node and a node joining or leaving moves only about 1/N of the jobs.
 */
public final class ConsistentHashAssigner implements FireAssigner {

  public static final int DEFAULT_VIRTUAL_NODES = 160;

  private final int virtualNodes;

  /** Rebuilt only when the live node list changes; the pair is swapped as one value. */
  private volatile Ring ring = new Ring(List.of(), new TreeMap<>());

  public ConsistentHashAssigner() {
    this(DEFAULT_VIRTUAL_NODES);
  }

  public ConsistentHashAssigner(int virtualNodes) {
    if (virtualNodes < 1) {
      throw new IllegalArgumentException("virtualNodes must be >= 1 but was " + virtualNodes);
    }
    this.virtualNodes = virtualNodes;
  }

  @Override
  public NodePicker forPass(List<String> liveNodes) {
    Ring current = ring;
    if (!current.nodes.equals(liveNodes)) {
      current = build(List.copyOf(liveNodes));
      ring = current;
    }
    NavigableMap<Long, String> points = current.points;
    return (jobId, fireMs) -> {
      Map.Entry<Long, String> at = points.ceilingEntry(hash(jobId));
      return (at != null ? at : points.firstEntry()).getValue();
    };
  }

  private Ring build(List<String> nodes) {
    TreeMap<Long, String> points = new TreeMap<>();
    for (String node : nodes) {
      for (int v = 0; v < virtualNodes; v++) {
        points.put(hash(node + "#" + v), node);
      }
    }
    return new Ring(nodes, points);
  }

  /** FNV-1a over the UTF-8 bytes, then a 64-bit finaliser so nearby strings spread on the ring. */
  static long hash(String text) {
    long h = 0xcbf29ce484222325L;
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h;
  }

  private record Ring(List<String> nodes, NavigableMap<Long, String> points) {}
}
