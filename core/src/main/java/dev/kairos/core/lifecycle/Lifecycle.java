package dev.kairos.core.lifecycle;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The lifecycle every long-lived component follows: {@code start()} once, {@code close()} any
 * number of times. A component holds one of these and asks it before acting; shared by every module
 * (executor-mq, audit) so the state machine is written once.
 */
public final class Lifecycle {

  /** LATENT until started, STARTED until closed, CLOSED for good. */
  public enum State {
    LATENT,
    STARTED,
    CLOSED
  }

  private final String component;
  private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);

  public Lifecycle(String component) {
    this.component = component;
  }

  /** Moves LATENT → STARTED; throws if started before or closed. */
  public void start() {
    if (!state.compareAndSet(State.LATENT, State.STARTED)) {
      throw new IllegalStateException(component + " cannot start: it is " + state.get());
    }
  }

  /** Moves to CLOSED; returns whether this call did it (false on the second close). */
  public boolean close() {
    return state.getAndSet(State.CLOSED) != State.CLOSED;
  }

  /**
   * Moves to CLOSED; returns whether the component was STARTED (false when it never started or was
   * closed before), for a close that must undo only what a start did.
   */
  public boolean closeStarted() {
    return state.getAndSet(State.CLOSED) == State.STARTED;
  }

  /** Moves to CLOSED; returns the state it left, for a close whose work depends on it. */
  public State closeFrom() {
    return state.getAndSet(State.CLOSED);
  }

  public State state() {
    return state.get();
  }

  public boolean isStarted() {
    return state.get() == State.STARTED;
  }

  /** Throws unless started and not yet closed. */
  public void requireStarted() {
    State current = state.get();
    if (current != State.STARTED) {
      throw new IllegalStateException(component + " is " + current + ", not STARTED");
    }
  }
}
