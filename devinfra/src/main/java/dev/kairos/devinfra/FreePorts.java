package dev.kairos.devinfra;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks free TCP ports on 127.0.0.1 for the embedded components.
 *
 * <p>Every port handed out lies in {@value #LOWEST}..{@value #HIGHEST}, below the Linux ephemeral
 * range (32768+), where the kernel picks local ports for outgoing connections: a port picked there
 * could be taken by any client between our check and the server's bind. For a block (a Redis
 * Cluster node and its bus port at + 10000) every port of the block is in that range, so the base
 * is drawn from a narrower one. Each candidate is checked by binding it.
 *
 * <p>A port handed out stays reserved for the life of the JVM, across JVMs too: this JVM holds a
 * lock on the file {@code /tmp/kairos-free-ports/<port>} until it exits (the operating system drops
 * the lock of a killed JVM). Checking that a port binds is not enough on its own: between the check
 * and the server's bind, or while a test has stopped a server to start it again on the same port, a
 * second test JVM (Surefire forks, {@code mvn -T 2}) could pick the same port, and ZooKeeper's
 * embedded server exits its whole JVM when its bind fails.
 */
public final class FreePorts {

  /** Lowest port handed out. */
  public static final int LOWEST = 20_000;

  /** Highest port handed out. */
  public static final int HIGHEST = 32_000;

  /** Ports handed out by this JVM, with the cross-JVM lock that reserves each. */
  private static final Map<Integer, FileLock> HANDED_OUT = new ConcurrentHashMap<>();

  private static final Path LOCKS = lockDirectory();

  private static final int ATTEMPTS = 2_000;

  private FreePorts() {}

  /**
   * One directory for every JVM on the machine. Not {@code java.io.tmpdir}: the build gives each
   * module's test forks their own ({@code <module>/target/tmp}), and two modules' tests run at once
   * ({@code -T 2}), so locks there were invisible to the other module's JVMs and both could take
   * the same port (CI lost a ZooKeeper that way: its bind failed and it exited the JVM).
   */
  static Path lockDirectory() {
    Path shared = Path.of("/tmp");
    Path base =
        Files.isDirectory(shared) && Files.isWritable(shared)
            ? shared
            : Path.of(System.getProperty("java.io.tmpdir"));
    return base.resolve("kairos-free-ports");
  }

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
      if (HANDED_OUT.containsKey(port)) {
        release(base, offsets, i);
        return false;
      }
      FileLock lock = lockAcrossJvms(port);
      if (lock == null || HANDED_OUT.putIfAbsent(port, lock) != null) {
        unlock(lock);
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
      unlock(HANDED_OUT.remove(base + offsets[i]));
    }
  }

  /** The port's reservation, or null while another live JVM holds it. */
  private static FileLock lockAcrossJvms(int port) {
    FileChannel channel = null;
    try {
      Files.createDirectories(LOCKS);
      channel =
          FileChannel.open(
              LOCKS.resolve(Integer.toString(port)),
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE);
      FileLock lock = channel.tryLock();
      if (lock == null) {
        channel.close();
      }
      return lock; // the channel stays open while the lock is held: closing it would drop the lock
    } catch (IOException | RuntimeException e) {
      // OverlappingFileLockException: this JVM raced itself for the port; try another
      closeQuietly(channel);
      return null;
    }
  }

  private static void unlock(FileLock lock) {
    if (lock != null) {
      closeQuietly(lock.channel());
    }
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel == null) {
      return;
    }
    try {
      channel.close();
    } catch (IOException e) {
      // nothing held any more either way
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
