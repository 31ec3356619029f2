package dev.kairos.sync.worker;

import dev.kairos.sync.event.SyncEvent;
import java.util.List;

/**
 * Test seam: called at the two crash points of a sync round. Production uses {@link #NONE}; a test
 * throws {@link SimulatedCrash} from a hook to kill the worker thread exactly there (the only
 * throwable the worker's loop lets through), then proves a fresh worker recovers.
 */
public interface SyncFaults {

  /** Ends the worker thread on the spot, as a process crash would: no ack, no cleanup. */
  final class SimulatedCrash extends Error {
    public SimulatedCrash(String where) {
      super("simulated crash " + where);
    }
  }

  SyncFaults NONE = new SyncFaults() {};

  /** Entries were read (now pending to this consumer) and not yet written to PostgreSQL. */
  default void afterRead(List<SyncEvent> events) {}

  /** The transaction committed and the entries are not yet acknowledged. */
  default void afterCommit(List<SyncEvent> events) {}
}
