package dev.kairos.node.api.job;

import dev.kairos.node.api.web.StrictJson;

/**
 * Optional body of "trigger now".
 *
 * @param params parameters for this run instead of the job's (at most 64 KiB); absent: the job's
 * @param slot the executor slot to run it on (0..1023): the node sends it to that slot's queue
 *     while the slot has a live lease, whatever the job's routing, and otherwise waits and ends
 *     NO_EXECUTOR like any fire without an executor; absent: the job's routing decides
 */
public record TriggerNowRequest(String params, Integer slot) implements StrictJson {}
