package dev.kairos.drills.bench;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shape of the cluster a bench starts ({@link BenchCluster}): what {@link ClusterBenchOptions}
 * and {@link ScaleBenchOptions} both parse from their command lines.
 *
 * @param nodes scheduler node JVMs
 * @param executors executor JVMs
 * @param queues queues per handler topic (= executor slots)
 * @param sync persistence-sync on: PostgreSQL started and the nodes sync to it
 * @param shards the shard count written to Redis before the nodes start
 * @param childJvmOptions the node and executor JVMs' options
 * @param redisConfig CONFIG SET pairs applied before the nodes start, in order
 */
record ClusterShape(
    int nodes,
    int executors,
    int queues,
    boolean sync,
    int shards,
    List<String> childJvmOptions,
    Map<String, String> redisConfig) {

  ClusterShape {
    childJvmOptions = List.copyOf(childJvmOptions);
    redisConfig = Collections.unmodifiableMap(new LinkedHashMap<>(redisConfig));
  }
}
