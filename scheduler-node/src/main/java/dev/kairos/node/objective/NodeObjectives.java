package dev.kairos.node.objective;

import dev.kairos.objectives.LatenessHistory;
import dev.kairos.objectives.ObjectiveWatch;
import java.util.Optional;

/**
 * This node's side of the lateness objectives: the history reader (absent without a DataSource) and
 * the watch that judges them while the node leads (absent without the history, or when {@code
 * kairos.objectives.enabled=false}).
 */
public final class NodeObjectives implements AutoCloseable {

  private final LatenessHistory history;
  private final ObjectiveWatch watch;

  NodeObjectives(LatenessHistory history, ObjectiveWatch watch) {
    this.history = history;
    this.watch = watch;
  }

  void start() {
    if (watch != null) {
      watch.start();
    }
  }

  public Optional<LatenessHistory> history() {
    return Optional.ofNullable(history);
  }

  @Override
  public void close() {
    if (watch != null) {
      watch.close();
    }
  }
}
