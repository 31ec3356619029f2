package dev.kairos.devinfra;

import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits for non-daemon threads that libraries stop asynchronously: Netty executors shut down
 * "gracefully" (a quiet period after close returns) and Netty's GlobalEventExecutor thread ends a
 * second after its last task. Without the wait a JVM whose tests are done lingers, or a check right
 * after close() sees threads that are about to end.
 */
final class LingeringThreads {

  private static final Logger log = LoggerFactory.getLogger(LingeringThreads.class);

  /** RocketMQ's remoting servers (NameServer and broker). */
  static final Predicate<String> ROCKETMQ_SERVERS =
      n ->
          n.startsWith("NettyServer")
              || n.startsWith("NettyNIOBoss")
              || n.startsWith("NettyEPOLLBoss");

  /**
   * RocketMQ's remoting clients. The broker's own client (to the NameServer) is the last thing its
   * shutdown stops, so its Netty workers are still winding down when the broker's close returns.
   */
  static final Predicate<String> ROCKETMQ_CLIENTS = n -> n.startsWith("NettyClient");

  /** Netty's (and shaded Netty's) global executor, used while channels close. */
  static final Predicate<String> NETTY_GLOBAL = n -> n.startsWith("globalEventExecutor");

  private LingeringThreads() {}

  /** Waits up to {@code timeout}; logs (does not throw) what is still running after it. */
  static void awaitGone(Predicate<String> names, Duration timeout, String what) {
    try {
      Poll.until(timeout, what + " threads to end", () -> matching(names).isEmpty());
    } catch (IllegalStateException e) {
      log.warn("{} threads still running after {}: {}", what, timeout, matching(names));
    }
  }

  private static List<String> matching(Predicate<String> names) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && !t.isDaemon())
        .map(Thread::getName)
        .filter(names)
        .toList();
  }
}
