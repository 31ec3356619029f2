package dev.kairos.node.api.backfill;

import dev.kairos.node.api.web.StrictJson;

/**
 * Body of a backfill start.
 *
 * @param from the first fire time to run, an ISO-8601 instant ({@code 2026-01-01T00:00:00Z})
 * @param to the last fire time to run, an ISO-8601 instant, not in the future; both ends included
 * @param maxConcurrent most fires of this backfill in flight at once; absent: 1
 */
public record BackfillRequest(String from, String to, Integer maxConcurrent)
    implements StrictJson {}
