package dev.kairos.coordinator.cluster;

import java.util.UUID;

/**
 * A scheduler node as registered in ZooKeeper.
 *
 * @param name the stable node name (owns the node's Redis keys)
 * @param incarnation a random id per process start, kept across session losses of that process, so
 *     a late reply from an old incarnation is never taken for the new one
 * @param internalAddress where the other nodes reach this one's cluster transport
 * @param startMs when this process started (epoch ms)
 */
public record Member(String name, String incarnation, String internalAddress, long startMs) {

  /** This process: a fresh incarnation. */
  public static Member ofThisProcess(String name, String internalAddress, long startMs) {
    return new Member(name, UUID.randomUUID().toString(), internalAddress, startMs);
  }
}
