package dev.kairos.sync.history.read;

/** How many triggers ended up (so far) in one state. */
public record StateCount(String state, Long count) {}
