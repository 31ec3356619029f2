package dev.kairos.drills;

import dev.kairos.demo.executor.DemoExecutorApplication;
import dev.kairos.mq.executor.ExecutorStats;
import dev.kairos.mq.spring.KairosExecutorLifecycle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Main class of a drill executor process, arguments {@code --name=value}: the demo executor (its
 * {@code demo-executor.yml} and handlers) plus {@link StartRecorder}. Every {@value
 * #STATS_EVERY_MS} ms it rewrites the stats file ({@code drills.stats-file}) with the executor's
 * counters, so the drill can read how many copies were reported DUPLICATE even after this process
 * is killed.
 *
 * <p>Also hosts {@link FirstAttemptSleeper} when started with {@code --}{@value
 * FirstAttemptSleeper#ENABLED}{@code =true}. Arguments {@code --logging.*} (e.g. a logger's level)
 * are also set as system properties: Boot configures logging before the arguments' property source
 * is added.
 */
public final class DrillExecutorMain {

  static final long STATS_EVERY_MS = 250;

  private DrillExecutorMain() {}

  public static void main(String[] args) throws Exception {
    Map<String, Object> properties = new LinkedHashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (!arg.startsWith("--") || eq < 0) {
        throw new IllegalArgumentException("expected --name=value, got " + arg);
      }
      properties.put(arg.substring(2, eq), arg.substring(eq + 1));
      if (arg.startsWith("--logging.")) {
        System.setProperty(arg.substring(2, eq), arg.substring(eq + 1));
      }
    }
    // The test classpath holds the scheduler node too: start() keeps this context a plain
    // executor (no web server, no JPA), as the demo does when it shares a JVM with the node.
    Class<?>[] handlers =
        Boolean.parseBoolean(String.valueOf(properties.get(FirstAttemptSleeper.ENABLED)))
            ? new Class<?>[] {StartRecorder.class, FirstAttemptSleeper.class}
            : new Class<?>[] {StartRecorder.class};
    ConfigurableApplicationContext context = DemoExecutorApplication.start(properties, handlers);
    Runtime.getRuntime().addShutdownHook(new Thread(context::close, "drill-executor-shutdown"));
    Path stats = Path.of(context.getEnvironment().getRequiredProperty("drills.stats-file"));
    KairosExecutorLifecycle executor = context.getBean(KairosExecutorLifecycle.class);
    Path tmp = stats.resolveSibling(stats.getFileName() + ".tmp");
    while (context.isActive()) {
      writeStats(executor, tmp, stats);
      Thread.sleep(STATS_EVERY_MS);
    }
  }

  private static void writeStats(KairosExecutorLifecycle executor, Path tmp, Path stats)
      throws Exception {
    if (!executor.isRunning()) {
      return;
    }
    ExecutorStats s = executor.executor().stats();
    String line =
        "slot="
            + executor.executor().slot()
            + " started="
            + s.started()
            + " duplicates="
            + s.duplicates()
            + " expired="
            + s.expired()
            + " errors="
            + s.errors()
            + "\n";
    Files.writeString(tmp, line, StandardCharsets.UTF_8);
    // Atomic rename: the drill never reads half a line.
    Files.move(tmp, stats, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
