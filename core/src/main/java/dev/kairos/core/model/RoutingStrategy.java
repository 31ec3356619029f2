package dev.kairos.core.model;

/** How a trigger chooses the executor slot(s) of its app. */
public enum RoutingStrategy {
  FIRST,
  LAST,
  ROUND,
  RANDOM,
  CONSISTENT_HASH,
  LEAST_FREQUENTLY_USED,
  LEAST_RECENTLY_USED,
  FAILOVER,
  BUSYOVER,
  /** One message per live slot, each with its own trigger id {@code <jobId>:<fireMs>#<i>/<n>}. */
  SHARDING_BROADCAST
}
