package dev.kairos.sync.rebuild;

import java.util.List;

/**
 * What one {@link RedisRebuilder#ensureInitialised(int)} did.
 *
 * @param rebuiltShards shards this node rebuilt (held the lock, marker was missing)
 * @param restoredJobs jobs this node wrote back into Redis
 * @param keptJobs jobs found already present in Redis and left alone
 */
public record RebuildReport(List<Integer> rebuiltShards, int restoredJobs, int keptJobs) {}
