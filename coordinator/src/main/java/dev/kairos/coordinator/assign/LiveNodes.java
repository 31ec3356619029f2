package dev.kairos.coordinator.assign;

import java.util.List;

/**
 * The scheduler nodes that may receive fires right now. Membership over ZooKeeper implements it
 * later; until then {@link StaticLiveNodes}.
 */
@FunctionalInterface
public interface LiveNodes {

  /** Stable node names, each once; empty when no node is live (nothing can be assigned). */
  List<String> current();
}
