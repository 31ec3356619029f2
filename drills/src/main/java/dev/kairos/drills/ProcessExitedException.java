package dev.kairos.drills;

import dev.kairos.cluster.process.ChildJvm;

/** A child process the drill waits on is gone: waiting longer cannot help. */
public final class ProcessExitedException extends IllegalStateException {

  public ProcessExitedException(ChildJvm process) {
    super(process.name() + " exited; see " + process.logFile());
  }
}
