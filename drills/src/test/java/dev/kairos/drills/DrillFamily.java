package dev.kairos.drills;

import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import java.util.List;
import java.util.Optional;

/**
 * What a {@link DrillBase} drill's cluster is made of: the infrastructure its class asks for
 * ({@code @RealInfra}), whether its nodes run behind proxies ({@link ProxiedNodeLinks}) or node-1
 * under a fake clock ({@link FakeNodeClocks}), and the arguments every process starts with ({@link
 * ClusterArgs}). Drills of one family need the same cluster, so they share one ({@link
 * SharedDrillCluster}): it starts once, and each drill after the first gets it back whole.
 */
record DrillFamily(RealInfra infra, boolean proxied, boolean fakeClock, List<String> args) {

  static DrillFamily of(Class<?> drill) {
    return new DrillFamily(
        drill.getAnnotation(
            RealInfra.class), // @Inherited: DrillBase's unless the drill has its own
        drill.isAnnotationPresent(ProxiedNodeLinks.class),
        drill.isAnnotationPresent(FakeNodeClocks.class),
        Optional.ofNullable(drill.getAnnotation(ClusterArgs.class))
            .map(a -> List.of(a.value()))
            .orElse(List.of()));
  }

  /** A short name for logs and the cluster's directory, e.g. {@code plain} or {@code proxied}. */
  String label() {
    StringBuilder label = new StringBuilder();
    if (infra != null && infra.redis() != RedisMode.STANDALONE) {
      label.append("redis-").append(infra.redis().name().toLowerCase().replace('_', '-'));
    }
    if (infra != null && infra.postgres()) {
      append(label, "postgres");
    }
    if (proxied) {
      append(label, "proxied");
    }
    if (fakeClock) {
      append(label, "fakeclock");
    }
    if (!args.isEmpty()) {
      append(label, "args" + Integer.toHexString(args.hashCode()));
    }
    return label.isEmpty() ? "plain" : label.toString();
  }

  private static void append(StringBuilder label, String part) {
    if (!label.isEmpty()) {
      label.append('-');
    }
    label.append(part);
  }
}
