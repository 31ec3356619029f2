package dev.kairos.coordinator.cluster;

/** The payload of the ephemeral leader znode. */
public record LeaderRecord(long term, String leaderId, String incarnation, String address) {}
