package dev.kairos.mq.slot;

import dev.kairos.core.error.KairosException;

/** Every slot 0..Q-1 of the app is held by a live lease: the app runs Q instances already. */
public class NoFreeSlotException extends KairosException {

  public NoFreeSlotException(String app, int slotCount) {
    super(
        "no free executor slot for app "
            + app
            + ": all "
            + slotCount
            + " slots are leased (Q = queues per handler topic = max instances)");
  }
}
