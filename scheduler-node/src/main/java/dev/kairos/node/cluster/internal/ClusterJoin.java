package dev.kairos.node.cluster.internal;

import org.springframework.context.SmartLifecycle;

/**
 * Starts {@link ClusterNode} (ZooKeeper membership, standing for election) once the rest of the
 * application is up, web server included. The leader judges a member by its answers to heartbeats,
 * and those arrive over HTTP: a node that joined while its context was still refreshing could not
 * answer for the whole rest of its start-up (9 s on a loaded 2-core machine), so the leader
 * declared a healthy, starting node dead and swept its wheel. The default phase runs after the web
 * server's.
 *
 * <p>Closing stays with the {@link ClusterNode} bean (its destroy method), as before.
 */
final class ClusterJoin implements SmartLifecycle {

  private final ClusterNode node;
  private volatile boolean running;

  ClusterJoin(ClusterNode node) {
    this.node = node;
  }

  @Override
  public void start() {
    node.start();
    running = true;
  }

  @Override
  public void stop() {
    running = false;
  }

  @Override
  public boolean isRunning() {
    return running;
  }
}
