package dev.kairos.devinfra;

/** Which ZooKeeper the kit starts. */
public enum ZkMode {
  /** No ZooKeeper. */
  NONE,
  /** One standalone server: {@link EmbeddedZooKeeper}. */
  STANDALONE,
  /** A three-server ensemble: {@link EmbeddedZooKeeperEnsemble}. */
  ENSEMBLE
}
