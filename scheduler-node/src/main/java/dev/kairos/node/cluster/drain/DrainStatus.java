package dev.kairos.node.cluster.drain;

/**
 * A drain's progress as the API and health show it.
 *
 * @param node this node's name
 * @param phase the current step
 * @param startedMs when the drain was asked for (epoch ms), 0 while serving
 * @param finishedMs when it reached DRAINED or FAILED (epoch ms), else 0
 * @param wheelEntries entries on this node's persisted wheel at the last check
 * @param inflightEntries entries in this node's inflight sets at the last check
 * @param exitWhenDrained whether the process exits once drained
 * @param message what the current step waits for, or why the drain failed
 */
public record DrainStatus(
    String node,
    DrainPhase phase,
    long startedMs,
    long finishedMs,
    long wheelEntries,
    long inflightEntries,
    boolean exitWhenDrained,
    String message) {

  static DrainStatus serving(String node) {
    return new DrainStatus(node, DrainPhase.SERVING, 0, 0, 0, 0, false, "serving");
  }

  DrainStatus started(long nowMs, boolean exit) {
    return new DrainStatus(node, DrainPhase.RESIGNING, nowMs, 0, 0, 0, exit, "resigning");
  }

  DrainStatus at(DrainPhase next, String why, long nowMs) {
    long finished = next == DrainPhase.DRAINED || next == DrainPhase.FAILED ? nowMs : 0;
    return new DrainStatus(
        node, next, startedMs, finished, wheelEntries, inflightEntries, exitWhenDrained, why);
  }

  DrainStatus holding(long wheel, long inflight) {
    return new DrainStatus(
        node, phase, startedMs, finishedMs, wheel, inflight, exitWhenDrained, message);
  }

  DrainStatus exiting(boolean exit) {
    return new DrainStatus(
        node, phase, startedMs, finishedMs, wheelEntries, inflightEntries, exit, message);
  }
}
