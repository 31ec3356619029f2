package dev.kairos.protocol.claim;

import java.util.Objects;

/** One fire of a job to claim: the scheduled time and the node whose wheel gets it. */
public record Fire(long fireMs, String node) {
  public Fire {
    Objects.requireNonNull(node, "node");
  }
}
