package dev.kairos.devinfra;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks free TCP ports on 127.0.0.1 for the embedded components.
 *
 * <p>Every port handed out lies in {@value #LOWEST}..{@value #HIGHEST}, below the Linux ephemeral
 * range (32768+), where the kernel picks local ports for outgoing connections: a port picked there
 * could be taken by any client between our check and the server's bind. For a block (a Redis
 * Cluster node and its bus port at + 10000) every port of the block is in that range, so the base
 * is drawn from a narrower one. A random start spreads parallel test JVMs apart, each candidate is
 * checked by binding it, and ports handed out by this JVM are remembered so two components of one
 * JVM never get the same port, even before either has bound it.
 */
public final class FreePorts {

  /** Lowest port handed out. */
  public static final int LOWEST = 20_000;

  /** Highest port handed out. */
  public static final int HIGHEST = 32_000;

  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();
  private static final int ATTEMPTS = 2_000;

  private FreePorts() {}

  /** One free port. */
  public static int pick() {
    return pickBlock(0);
  }

  /**
   * A base port p such that p + offset is free for every offset (offsets may be negative), e.g.
   * {@code pickBlock(0, 10000)} for a Redis Cluster node and its bus port.
   */
  public static int pickBlock(int... offsets) {
    int lowestBase = LOWEST - Arrays.stream(offsets).min().orElse(0);
    int highestBase = HIGHEST - Arrays.stream(offsets).max().orElse(0);
    if (lowestBase > highestBase) {
      throw new IllegalArgumentException(
          "offsets " + Arrays.toString(offsets) + " do not fit in " + LOWEST + ".." + HIGHEST);
    }
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      int base = random.nextInt(lowestBase, highestBase + 1);
      if (reserveAll(base, offsets)) {
        return base;
      }
    }
    throw new IllegalStateException(
        "no free port block found on 127.0.0.1 in " + ATTEMPTS + " tries");
  }

  private static boolean reserveAll(int base, int[] offsets) {
    for (int i = 0; i < offsets.length; i++) {
      int port = base + offsets[i];
      if (!HANDED_OUT.add(port)) {
        release(base, offsets, i);
        return false;
      }
      if (!bindable(port)) {
        release(base, offsets, i + 1);
        return false;
      }
    }
    return true;
  }

  private static void release(int base, int[] offsets, int count) {
    for (int i = 0; i < count; i++) {
      HANDED_OUT.remove(base + offsets[i]);
    }
  }

  private static boolean bindable(int port) {
    // Check the wildcard too: some servers (ZooKeeper's quorum ports) listen on 0.0.0.0.
    try (ServerSocket loopback = new ServerSocket()) {
      loopback.setReuseAddress(false);
      loopback.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    } catch (IOException e) {
      return false;
    }
    try (ServerSocket any = new ServerSocket()) {
      any.setReuseAddress(false);
      any.bind(new InetSocketAddress(port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
