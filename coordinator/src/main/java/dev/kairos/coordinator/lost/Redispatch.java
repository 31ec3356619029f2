package dev.kairos.coordinator.lost;

/** The leader's verdict on a DISPATCHED trigger: publish it again, to {@code slot}. */
public record Redispatch(String triggerId, int slot) {}
