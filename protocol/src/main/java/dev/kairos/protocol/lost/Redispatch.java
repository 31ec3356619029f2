package dev.kairos.protocol.lost;

/**
 * The leader's verdict on a DISPATCHED trigger: publish it again, to {@code slot}; or, with {@link
 * #NO_EXECUTOR} as the slot, end it NO_EXECUTOR.
 */
public record Redispatch(String triggerId, int slot) {

  /** The slot that means "no live executor hosts it": the trigger ends NO_EXECUTOR. */
  public static final int NO_EXECUTOR = -1;
}
