package dev.kairos.mq.executor;

import java.time.Duration;

/**
 * A snapshot of an executor instance's health ({@link KairosExecutor#health()}).
 *
 * @param app the executor app
 * @param instanceId the instance id in its slot lease
 * @param started started and not closed
 * @param consuming started, lease trusted and consumer running: it takes work from its queues
 * @param slot the slot of the current lease, -1 before the first claim
 * @param leaseValid whether the current lease is trusted (local monotonic deadline not passed)
 * @param leaseRemaining trust left before the local deadline
 * @param sinceRenewal time since the last successful claim or renewal was sent
 * @param reclaims how many times the instance claimed a slot again after losing its lease
 * @param running handler runs in progress
 */
public record ExecutorHealth(
    String app,
    String instanceId,
    boolean started,
    boolean consuming,
    int slot,
    boolean leaseValid,
    Duration leaseRemaining,
    Duration sinceRenewal,
    long reclaims,
    int running) {}
