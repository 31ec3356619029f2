package dev.kairos.console.metrics;

/**
 * One point of the dashboard's charts: rates over the interval that ended at {@code atMs}.
 *
 * @param firesPerSecond dispatched triggers per second over the interval
 * @param misfires misfires counted in the interval
 * @param failures failures counted in the interval
 */
public record DashboardSample(
    long atMs,
    double firesPerSecond,
    double latenessP50Ms,
    double latenessP99Ms,
    double misfires,
    double failures) {}
