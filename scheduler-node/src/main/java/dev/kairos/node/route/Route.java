package dev.kairos.node.route;

import java.util.List;

/**
 * Where one trigger goes: the slot indexes it is sent to. Empty when no live executor of the app
 * hosts the handler (the trigger ends NO_EXECUTOR); one slot for every strategy but
 * SHARDING_BROADCAST, which sends one message per live hosting slot.
 *
 * @param slots slot indexes, sorted ascending for a broadcast
 * @param broadcast whether each slot gets its own shard of the trigger
 */
public record Route(List<Integer> slots, boolean broadcast) {

  public Route {
    slots = List.copyOf(slots);
  }

  public static Route none() {
    return new Route(List.of(), false);
  }

  public static Route single(int slot) {
    return new Route(List.of(slot), false);
  }

  public boolean isEmpty() {
    return slots.isEmpty();
  }

  /** The slot of a single route. */
  public int slot() {
    if (slots.size() != 1 || broadcast) {
      throw new IllegalStateException("not a single-slot route: " + this);
    }
    return slots.get(0);
  }
}
