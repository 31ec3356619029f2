package dev.kairos.node.api.node;

/**
 * The body of {@code POST /api/v1/node/drain}; optional.
 *
 * @param exit whether the process exits once drained (default false: it stays up, out of the
 *     cluster, until stopped)
 */
record DrainRequest(Boolean exit) {

  boolean exitWhenDrained() {
    return Boolean.TRUE.equals(exit);
  }
}
