package dev.kairos.devinfra;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The LATENT → STARTED → CLOSED lifecycle every component of the kit shares: starting twice throws,
 * closing twice is a no-op, and fault operations on a closed component throw.
 */
final class Lifecycle {

  enum State {
    LATENT,
    STARTED,
    CLOSED
  }

  private final String component;
  private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);

  Lifecycle(String component) {
    this.component = component;
  }

  void markStarted() {
    if (!state.compareAndSet(State.LATENT, State.STARTED)) {
      throw new IllegalStateException(component + " cannot be started: it is " + state.get());
    }
  }

  /** Returns true only for the call that actually closes. */
  boolean markClosed() {
    return state.getAndSet(State.CLOSED) != State.CLOSED;
  }

  void requireStarted() {
    State now = state.get();
    if (now != State.STARTED) {
      throw new IllegalStateException(component + " is " + now);
    }
  }

  State state() {
    return state.get();
  }
}
