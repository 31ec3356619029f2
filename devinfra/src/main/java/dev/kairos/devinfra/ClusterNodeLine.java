package dev.kairos.devinfra;

import java.util.ArrayList;
import java.util.List;

/**
 * One line of {@code CLUSTER NODES}: {@code <id> <ip:port@bus> <flags> <master-id|-> <ping> <pong>
 * <epoch> <link> <slot ranges...>}.
 */
record ClusterNodeLine(
    String id, int port, List<String> flags, String masterId, List<int[]> slots) {

  static List<ClusterNodeLine> parse(String clusterNodes) {
    List<ClusterNodeLine> lines = new ArrayList<>();
    for (String line : clusterNodes.split("\n")) {
      String[] f = line.trim().split(" ");
      if (f.length < 8) {
        continue;
      }
      String address = f[1].substring(0, f[1].indexOf('@') < 0 ? f[1].length() : f[1].indexOf('@'));
      int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
      List<int[]> slots = new ArrayList<>();
      for (int i = 8; i < f.length; i++) {
        if (f[i].startsWith("[")) {
          continue; // a slot being migrated or imported
        }
        String[] range = f[i].split("-");
        int from = Integer.parseInt(range[0]);
        slots.add(new int[] {from, range.length > 1 ? Integer.parseInt(range[1]) : from});
      }
      lines.add(new ClusterNodeLine(f[0], port, List.of(f[2].split(",")), f[3], slots));
    }
    return lines;
  }

  boolean isMaster() {
    return flags.contains("master");
  }

  /** Flagged fail or pfail (suspected). */
  boolean failed() {
    return flags.contains("fail") || flags.contains("fail?");
  }

  boolean hasSlots() {
    return !slots.isEmpty();
  }

  boolean owns(int slot) {
    return slots.stream().anyMatch(r -> slot >= r[0] && slot <= r[1]);
  }
}
