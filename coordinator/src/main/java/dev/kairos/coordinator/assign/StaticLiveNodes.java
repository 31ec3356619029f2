package dev.kairos.coordinator.assign;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/** A fixed (or test-controlled) list of live nodes. Thread-safe. */
public final class StaticLiveNodes implements LiveNodes {

  private final AtomicReference<List<String>> nodes;

  public StaticLiveNodes(List<String> nodes) {
    this.nodes = new AtomicReference<>(distinct(nodes));
  }

  public static StaticLiveNodes of(String... nodes) {
    return new StaticLiveNodes(List.of(nodes));
  }

  @Override
  public List<String> current() {
    return nodes.get();
  }

  /** Replaces the list, as membership would when a node joins or dies. */
  public void set(List<String> nodes) {
    this.nodes.set(distinct(nodes));
  }

  private static List<String> distinct(List<String> nodes) {
    return nodes.stream().distinct().toList();
  }
}
