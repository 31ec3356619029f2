package dev.kairos.node.api.job;

import dev.kairos.node.api.web.StrictJson;

/**
 * Optional body of "trigger now".
 *
 * @param params parameters for this run instead of the job's (at most 64 KiB); absent: the job's
 */
public record TriggerNowRequest(String params) implements StrictJson {}
