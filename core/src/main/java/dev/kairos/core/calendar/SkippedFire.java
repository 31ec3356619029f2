package dev.kairos.core.calendar;

/** A fire a calendar excludes: recorded SKIPPED under its trigger id instead of being run. */
public record SkippedFire(long fireMs, String calendar) {}
