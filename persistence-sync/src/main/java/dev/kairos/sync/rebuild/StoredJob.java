package dev.kairos.sync.rebuild;

import java.util.Map;

/**
 * A live job as PostgreSQL holds it: its Redis hash fields (without nextFireMs, recomputed on
 * restore) plus what the restore needs to decide the next fire.
 */
public record StoredJob(String id, int shard, Map<String, String> hash, Long lastFireMs) {}
