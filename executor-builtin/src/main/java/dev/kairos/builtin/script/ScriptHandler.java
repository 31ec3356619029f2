package dev.kairos.builtin.script;

import static java.nio.file.attribute.PosixFilePermission.GROUP_WRITE;
import static java.nio.file.attribute.PosixFilePermission.OTHERS_WRITE;

import dev.kairos.builtin.BuiltinRunFailedException;
import dev.kairos.mq.executor.JobContext;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The built-in handler {@value #NAME}: runs the job's script ({@link ScriptParams}) as a real
 * process on the executor's host. Off unless the executor enables it ({@link ScriptSettings}); an
 * interpreter not on the allow-list fails the run before anything starts.
 *
 * <p>A run writes the script text to a file in a private directory under the work dir, logs the
 * script's SHA-256 (which version of the job's script ran), starts {@code <interpreter> <file>
 * <args...>} in that directory with stdin closed, streams stdout and stderr into the run's log
 * (bounded, {@link OutputPump}), and ends SUCCESS on exit code 0. On its timeout, or when the
 * executor interrupts the run (the job's timeout, a cancel, shutdown), it kills the process tree
 * ({@link ProcessTree}); background processes the script leaves running when it exits are killed
 * too. The directory is deleted after every run.
 */
public final class ScriptHandler implements dev.kairos.mq.executor.JobHandler {

  public static final String NAME = "kairos.script";

  private static final Logger log = LoggerFactory.getLogger(ScriptHandler.class);

  /** How often a running script's descendants are looked up, so orphans can be found later. */
  static final long TRACK_EVERY_MS = 250;

  private final ScriptSettings settings;

  public ScriptHandler(ScriptSettings settings) {
    this.settings = settings;
  }

  public ScriptSettings settings() {
    return settings;
  }

  @Override
  public void execute(JobContext context) throws Exception {
    if (!settings.enabled()) {
      throw new BuiltinRunFailedException(
          NAME
              + " is disabled on this executor: nothing was run (set"
              + " kairos.executor.builtin.script.enabled=true and list the interpreters in"
              + " kairos.executor.builtin.script.allowed-interpreters)");
    }
    ScriptParams params = ScriptParams.parse(NAME, context.params(), settings.defaultTimeout());
    if (!settings.allowedInterpreters().contains(params.interpreter())) {
      throw new BuiltinRunFailedException(
          NAME
              + ": interpreter \""
              + params.interpreter()
              + "\" is not allowed on this executor (allowed: "
              + settings.allowedInterpreters()
              + "); nothing was run");
    }
    byte[] script = params.script().getBytes(StandardCharsets.UTF_8);
    context
        .log()
        .info(
            "script sha256 {} ({} bytes), interpreter {}, {} args, timeout {} ms",
            sha256(script),
            script.length,
            params.interpreter(),
            params.args().size(),
            params.timeout().toMillis());
    Path runDir = privateRunDir();
    try {
      Path file = runDir.resolve("script");
      Files.write(file, script);
      run(context, params, runDir, file);
    } finally {
      deleteQuietly(runDir);
    }
  }

  private void run(JobContext context, ScriptParams params, Path runDir, Path file)
      throws Exception {
    List<String> command = new ArrayList<>();
    command.add(params.interpreter());
    command.add(file.toString());
    command.addAll(params.args());
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(runDir.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    Map<String, String> env = builder.environment();
    env.put("KAIROS_JOB_ID", context.jobId());
    env.put("KAIROS_TRIGGER_ID", context.triggerId());
    env.put("KAIROS_FIRE_MS", Long.toString(context.scheduledFireMs()));
    env.put("KAIROS_ATTEMPT", Integer.toString(context.attempt()));
    env.put("KAIROS_SHARD_INDEX", Integer.toString(context.shardIndex()));
    env.put("KAIROS_SHARD_TOTAL", Integer.toString(context.shardTotal()));
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new BuiltinRunFailedException(
          NAME + ": could not start " + params.interpreter() + ": " + e.getMessage(), e);
    }
    long start = System.nanoTime();
    context.log().info("started pid {}", process.pid());
    ProcessTree tree = new ProcessTree(process.toHandle());
    AtomicInteger budget = new AtomicInteger(settings.maxOutputLines());
    AtomicInteger dropped = new AtomicInteger();
    String prefix = "kairos-script-" + process.pid();
    OutputPump out =
        new OutputPump(
                process.getInputStream(), false, context.log(), budget, dropped, prefix + "-out")
            .start();
    OutputPump err =
        new OutputPump(
                process.getErrorStream(), true, context.log(), budget, dropped, prefix + "-err")
            .start();
    long deadline = start + params.timeout().toNanos();
    try {
      while (true) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          int killed = tree.kill(settings.killGrace());
          finishOutput(context, out, err, dropped);
          throw new BuiltinRunFailedException(
              NAME
                  + ": timed out after "
                  + params.timeout().toMillis()
                  + " ms; killed the process tree ("
                  + killed
                  + " processes)");
        }
        if (process.waitFor(
            Math.min(TRACK_EVERY_MS, TimeUnit.NANOSECONDS.toMillis(left) + 1),
            TimeUnit.MILLISECONDS)) {
          break;
        }
        tree.track();
      }
    } catch (InterruptedException e) {
      // The executor stopped the run (job timeout, cancel, shutdown): nothing may outlive it.
      int killed = tree.kill(settings.killGrace());
      context.log().warn("interrupted: killed the process tree ({} processes)", killed);
      throw e;
    }
    List<ProcessHandle> leftBehind = tree.aliveDescendants();
    if (!leftBehind.isEmpty()) {
      int killed = tree.kill(settings.killGrace());
      context.log().warn("killed {} background processes the script left running", killed);
    }
    finishOutput(context, out, err, dropped);
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    int exit = process.exitValue();
    if (exit != 0) {
      throw new BuiltinRunFailedException(NAME + ": exit code " + exit + " after " + ms + " ms");
    }
    context.log().setMessage("exit code 0 after " + ms + " ms");
  }

  /** Lets the pumps read what is left in the pipes; bounded, the processes are gone by now. */
  private void finishOutput(
      JobContext context, OutputPump out, OutputPump err, AtomicInteger dropped)
      throws InterruptedException {
    long waitMs = settings.killGrace().toMillis() + 1_000;
    boolean ended = out.join(waitMs) & err.join(waitMs);
    if (!ended) {
      context.log().warn("output still open after the script ended; stopped reading it");
      log.warn(
          "{}: a process outside the script's tree holds its output open; its reader thread stays"
              + " until the pipe closes",
          context.triggerId());
    }
    if (dropped.get() > 0) {
      context
          .log()
          .info(
              "{} more output lines not logged (max-output-lines {})",
              dropped.get(),
              settings.maxOutputLines());
    }
  }

  /**
   * A fresh {@code rwx------} directory under the work dir. The work dir must belong to this
   * process's user and be writable by no one else: whoever can write there could swap a run's
   * directory between the script's write and its start.
   */
  private Path privateRunDir() throws IOException {
    Path workDir = settings.workDir();
    Files.createDirectories(workDir);
    if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      return Files.createTempDirectory(workDir, "run-");
    }
    Path runDir =
        Files.createTempDirectory(
            workDir,
            "run-",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Set<PosixFilePermission> shared = EnumSet.of(GROUP_WRITE, OTHERS_WRITE);
    shared.retainAll(Files.getPosixFilePermissions(workDir, LinkOption.NOFOLLOW_LINKS));
    if (!Files.getOwner(workDir, LinkOption.NOFOLLOW_LINKS).equals(Files.getOwner(runDir))
        || !shared.isEmpty()) {
      deleteQuietly(runDir);
      throw new BuiltinRunFailedException(
          NAME
              + ": the work dir "
              + workDir
              + " must be owned by the executor's user and writable by no one else"
              + " (kairos.executor.builtin.script.work-dir); nothing was run");
    }
    return runDir;
  }

  private static void deleteQuietly(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      log.warn("could not delete the script run directory {}: {}", dir, e.toString());
    }
  }

  /** Hex SHA-256 of the script's UTF-8 bytes: the version of the script that ran. */
  public static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every JVM", e);
    }
  }
}
