package dev.kairos.sync.worker;

/**
 * How far PostgreSQL is behind one shard's stream.
 *
 * @param shard the shard
 * @param pending entries delivered to a consumer and not yet acknowledged
 * @param streamLength entries in the stream (unsynced plus acknowledged ones not yet trimmed)
 * @param oldestUnsyncedAgeMs age of the oldest entry not yet acknowledged, 0 when none
 */
public record ShardLag(int shard, long pending, long streamLength, long oldestUnsyncedAgeMs) {}
