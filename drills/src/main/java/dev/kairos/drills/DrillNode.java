package dev.kairos.drills;

import dev.kairos.cluster.process.ChildJvm;

/** A scheduler node running as a child JVM: its stable name, HTTP port, process and probe. */
public record DrillNode(String name, int port, ChildJvm process, NodeProbe probe) {

  @Override
  public String toString() {
    return name + ":" + port + " " + process;
  }
}
