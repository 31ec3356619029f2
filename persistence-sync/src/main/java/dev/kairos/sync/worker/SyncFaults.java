package dev.kairos.sync.worker;

import dev.kairos.sync.event.SyncEvent;
import java.util.List;

/**
 * Test seam: called at the two crash points of a sync round. Production uses {@link #NONE}; a test
 * throws from a hook (an {@link Error}, which the worker's loop does not catch) to kill the worker
 * thread exactly there, then proves a fresh worker recovers.
 */
public interface SyncFaults {

  SyncFaults NONE = new SyncFaults() {};

  /** Entries were read (now pending to this consumer) and not yet written to PostgreSQL. */
  default void afterRead(List<SyncEvent> events) {}

  /** The transaction committed and the entries are not yet acknowledged. */
  default void afterCommit(List<SyncEvent> events) {}
}
