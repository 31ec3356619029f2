package dev.kairos.coordinator.assign;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Fires go to the live nodes in turn; the turn carries over from one scan pass to the next. */
public final class RoundRobinAssigner implements FireAssigner {

  private final AtomicLong next = new AtomicLong();

  @Override
  public NodePicker forPass(List<String> liveNodes) {
    List<String> nodes = List.copyOf(liveNodes);
    return (jobId, fireMs) -> nodes.get((int) Math.floorMod(next.getAndIncrement(), nodes.size()));
  }
}
