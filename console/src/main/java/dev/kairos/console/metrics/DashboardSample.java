package dev.kairos.console.metrics;

/**
 * One point of the dashboard's charts: rates over the interval that ended at {@code atMs}.
 *
 * @param firesPerSecond dispatched triggers per second over the interval
 * @param latenessP50Ms dispatch lateness p50 (send time − fire time), the node timer's recent value
 * @param latenessP99Ms dispatch lateness p99
 * @param misfires misfires counted in the interval
 * @param failures failures counted in the interval
 * @param startP50Ms start lateness p50 (handler start − fire time) of the triggers that ended in
 *     the interval, as far as this node's lifecycle worker saw them; NaN when none did
 * @param startP99Ms start lateness p99, likewise
 */
public record DashboardSample(
    long atMs,
    double firesPerSecond,
    double latenessP50Ms,
    double latenessP99Ms,
    double misfires,
    double failures,
    double startP50Ms,
    double startP99Ms) {}
