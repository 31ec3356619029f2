package dev.kairos.cluster.cli;

import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

/**
 * Main class of the local cluster's infrastructure JVM: devinfra's embedded Redis (a redis-server
 * child process), ZooKeeper, RocketMQ NameServer + Broker and PostgreSQL, on free loopback ports.
 * Once everything is up it writes the connection properties a node reads ({@link
 * EmbeddedInfrastructure#springProperties()}) to the file given as the second argument, atomically:
 * the CLI waits for that file. SIGTERM closes every component (Redis syncs its AOF), then the JVM
 * exits.
 *
 * <p>Arguments: {@code <work-dir> <properties-file>}.
 */
public final class InfraMain {

  private InfraMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      throw new IllegalArgumentException("usage: InfraMain <work-dir> <properties-file>");
    }
    Path workDir = Path.of(args[0]);
    Path propertiesFile = Path.of(args[1]);
    EmbeddedInfrastructure infra =
        EmbeddedInfrastructure.builder()
            .workDir(workDir)
            .redis(RedisMode.STANDALONE)
            .zookeeper(ZkMode.STANDALONE)
            .rocketMq(true)
            .postgres(true)
            .start();
    CountDownLatch closed = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  infra.close();
                  closed.countDown();
                },
                "kairos-local-infra-shutdown"));
    writeAtomically(propertiesFile, infra);
    System.out.println("kairos local infrastructure up: " + infra);
    // Safety: the main thread only parks; the shutdown hook closes the components.
    closed.await();
  }

  private static void writeAtomically(Path file, EmbeddedInfrastructure infra) throws IOException {
    Properties p = new Properties();
    p.putAll(infra.springProperties());
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
      p.store(w, "connection properties of the local cluster's infrastructure");
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
