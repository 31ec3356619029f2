package dev.kairos.node.cluster.drain;

import dev.kairos.core.error.KairosException;

/** A drain that would leave nobody to take this node's wheel: refused, nothing changed. */
public class DrainRefusedException extends KairosException {

  public DrainRefusedException(String message) {
    super(message);
  }
}
