package dev.kairos.devinfra;

import com.github.dockerjava.api.DockerClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;

/**
 * One component's container with its port bound to the same host port, so a {@link #stop()} and
 * {@link #start()} keep the address the tests were given and the data (the container is stopped and
 * started, never removed, until {@link #close()}).
 */
final class ContainerServer implements ServerControl {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  private final String name;
  private final GenericContainer<?> container;
  private final int port;

  /**
   * @param port the host port (bound to itself in the container) that answers once the server is up
   */
  ContainerServer(String name, GenericContainer<?> container, int port) {
    this.name = name;
    this.container = container;
    this.port = port;
  }

  /** Creates and starts the container; returns when Testcontainers' wait strategy is satisfied. */
  ContainerServer create() {
    container.start();
    return this;
  }

  @Override
  public synchronized void start() {
    if (isRunning()) {
      return;
    }
    docker().startContainerCmd(container.getContainerId()).exec();
    Poll.until(START_TIMEOUT, name + " container accepting on 127.0.0.1:" + port, this::accepts);
  }

  @Override
  public synchronized void stop() {
    if (isRunning()) {
      docker().stopContainerCmd(container.getContainerId()).exec();
    }
  }

  @Override
  public synchronized boolean isRunning() {
    return Boolean.TRUE.equals(
        docker().inspectContainerCmd(container.getContainerId()).exec().getState().getRunning());
  }

  @Override
  public synchronized void close() {
    container.stop(); // stops and removes it
  }

  private boolean accepts() {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static DockerClient docker() {
    return DockerClientFactory.instance().client();
  }

  @Override
  public String toString() {
    return name + "[" + container.getDockerImageName() + " on 127.0.0.1:" + port + "]";
  }
}
