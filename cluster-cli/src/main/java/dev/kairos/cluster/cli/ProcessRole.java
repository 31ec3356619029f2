package dev.kairos.cluster.cli;

/** What a process of the local cluster is; {@code down} stops them in the reverse of this order. */
public enum ProcessRole {
  /** The embedded infrastructure JVM ({@link InfraMain}) and its redis-server. */
  INFRA,
  /** A scheduler node ({@code KairosNodeApplication}, the node's exec jar). */
  NODE,
  /** A sample executor service (the demo executor's exec jar). */
  EXECUTOR
}
