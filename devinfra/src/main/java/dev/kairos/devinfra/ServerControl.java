package dev.kairos.devinfra;

/**
 * Start and stop of one server, whatever runs it: a child process, an in-JVM server or a container.
 * The components' fault-injection methods ({@code stop()}, {@code restart()}) go through it, so a
 * test injects the same fault into either backend.
 */
interface ServerControl extends AutoCloseable {

  /** Starts a stopped server on the same port with the same data; returns once it answers. */
  void start();

  /** Stops the server; a stopped server stays stopped. */
  void stop();

  boolean isRunning();

  /** Stops for good and releases what the server held. */
  @Override
  void close();
}
