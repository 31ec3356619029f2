package dev.kairos.core.lifecycle;

import java.time.Duration;

/**
 * The one thread of a component that runs a loop until it is closed (a stream consumer's poll
 * loop): named, a daemon (a forgotten close never holds the JVM up), stopped by interrupting it and
 * waiting a bounded time for the loop to see it. The loop itself checks its component's {@link
 * Lifecycle}.
 */
public final class LoopThread implements AutoCloseable {

  /** Longer than any one round of a loop takes to notice its interrupt. */
  public static final Duration JOIN_TIMEOUT = Duration.ofSeconds(10);

  private final Thread thread;

  private LoopThread(Thread thread) {
    this.thread = thread;
  }

  /** Starts {@code loop} on a new daemon thread called {@code name}. */
  public static LoopThread start(String name, Runnable loop) {
    Thread t = new Thread(loop, name);
    t.setDaemon(true);
    t.start();
    return new LoopThread(t);
  }

  public boolean isAlive() {
    return thread.isAlive();
  }

  /**
   * Interrupts the loop and waits up to {@link #JOIN_TIMEOUT} for it to end; idempotent. Called
   * from the loop itself (a pass that closes its component), it only interrupts.
   */
  @Override
  public void close() {
    thread.interrupt();
    if (Thread.currentThread() == thread) {
      return;
    }
    try {
      thread.join(JOIN_TIMEOUT.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
