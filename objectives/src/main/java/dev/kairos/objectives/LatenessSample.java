package dev.kairos.objectives;

import java.util.OptionalLong;

/**
 * What the history says about one job's scheduled fires in {@code [fromMs, toMs]}.
 *
 * @param fires ended first attempts of scheduled fires in the window (skipped, discarded, cancelled
 *     and dropped fires do not count: nobody meant them to start)
 * @param neverStarted those of {@code fires} that ended without a start (LOST, EXPIRED,
 *     NO_EXECUTOR): their lateness is unbounded
 * @param observedMs the objective's percentile of start lateness; empty when there are no fires or
 *     the percentile falls on a fire that never started
 */
public record LatenessSample(
    long fromMs, long toMs, long fires, long neverStarted, OptionalLong observedMs) {}
