package dev.kairos.node.api.job;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A manual trigger accepted: the leader's next scan claims it into a node's wheel (within the scan
 * interval) and it fires like a scheduled one; {@code GET /api/v1/triggers/{triggerId}} follows it
 * from then on.
 *
 * @param paramsOverridden whether this run gets the request's params instead of the job's
 * @param slot the executor slot it was asked to run on; absent when the job's routing decides
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TriggerNowResponse(
    String triggerId, String jobId, boolean paramsOverridden, Integer slot) {}
