package dev.kairos.coordinator.assign;

import java.util.List;

/** A balancing strategy that spreads claimed fires over the live nodes. */
public interface FireAssigner {

  /**
   * Prepares the picks of one scan pass over {@code liveNodes} (non-empty). The returned picker is
   * called concurrently from the shards' scan tasks, so it must be thread-safe.
   */
  NodePicker forPass(List<String> liveNodes);

  /** Chooses the node for one fire. */
  @FunctionalInterface
  interface NodePicker {
    String pick(String jobId, long fireMs);
  }

  /** The named strategies an operator can configure. */
  enum Strategy {
    CONSISTENT_HASH,
    ROUND_ROBIN,
    LEAST_LOADED
  }
}
