package dev.kairos.builtin.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.builtin.BuiltinRunFailedException;
import dev.kairos.builtin.Contexts;
import dev.kairos.builtin.InvalidParamsException;
import dev.kairos.devinfra.Poll;
import dev.kairos.mq.executor.JobContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The script handler running real processes (sh and bash of this machine). */
class ScriptHandlerTest {

  private static final Duration DEADLINE = Duration.ofSeconds(15);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path workDir;
  @TempDir Path scratch;

  @AfterEach
  void noReaderThreadOutlivesItsRun() {
    Poll.until(
        DEADLINE,
        "kairos-script- reader threads to end",
        () ->
            Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().startsWith("kairos-script-") && t.isAlive()));
  }

  private ScriptHandler enabled(String... interpreters) {
    return new ScriptHandler(
        new ScriptSettings(
            true,
            List.of(interpreters),
            workDir,
            Duration.ofMinutes(1),
            Duration.ofSeconds(2),
            20));
  }

  private static String params(String interpreter, String script, Object... more) throws Exception {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("interpreter", interpreter);
    params.put("script", script);
    for (int i = 0; i < more.length; i += 2) {
      params.put((String) more[i], more[i + 1]);
    }
    return JSON.writeValueAsString(params);
  }

  private static JobContext context(String params) {
    return Contexts.of(ScriptHandler.NAME, params);
  }

  /** Polls until the process is gone; fails with the pid if it is still alive at the deadline. */
  private static void assertGone(long pid) {
    Poll.until(
        DEADLINE,
        "process " + pid + " to be gone",
        () -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
  }

  private static long readPid(Path file) {
    AtomicReference<Long> pid = new AtomicReference<>();
    Poll.until(
        DEADLINE,
        "the script to write the child's pid to " + file,
        () -> {
          try {
            String text = Files.readString(file).trim();
            if (text.isEmpty()) {
              return false;
            }
            pid.set(Long.parseLong(text));
            return true;
          } catch (java.io.IOException e) {
            return false;
          }
        });
    return pid.get();
  }

  @Test
  void scriptJobsAreOffByDefaultAndRunNothing() throws Exception {
    ScriptHandler handler = new ScriptHandler(ScriptSettings.disabled());
    Path marker = scratch.resolve("ran");
    JobContext context = context(params("sh", "touch '" + marker + "'"));

    assertThatThrownBy(() -> handler.execute(context))
        .isInstanceOf(BuiltinRunFailedException.class)
        .hasMessageContaining("kairos.script is disabled on this executor: nothing was run");
    assertThat(marker).doesNotExist();
    assertThat(handler.settings().allowedInterpreters()).isEmpty();
  }

  @Test
  void anInterpreterOffTheAllowListRunsNothing() throws Exception {
    ScriptHandler handler = enabled("sh");
    Path marker = scratch.resolve("ran");
    JobContext context = context(params("bash", "touch '" + marker + "'"));

    assertThatThrownBy(() -> handler.execute(context))
        .isInstanceOf(BuiltinRunFailedException.class)
        .hasMessage(
            "kairos.script: interpreter \"bash\" is not allowed on this executor (allowed: [sh]);"
                + " nothing was run");
    assertThat(marker).doesNotExist();
    // A path is not the same entry as a name: the allow-list is matched exactly.
    assertThatThrownBy(() -> handler.execute(context(params("/bin/sh", "touch '" + marker + "'"))))
        .hasMessageContaining("not allowed");
    assertThat(marker).doesNotExist();
  }

  @Test
  void aScriptRunsWithItsArgsAndItsOutputAndShaGoToTheLog() throws Exception {
    String script = "echo \"hello $1 from $KAIROS_JOB_ID\"\necho 'to stderr' >&2\nexit 0\n";
    JobContext context = context(params("bash", script, "args", List.of("world")));

    enabled("bash").execute(context);

    String sha = ScriptHandler.sha256(script.getBytes(StandardCharsets.UTF_8));
    assertThat(context.log().text())
        .startsWith("exit code 0 after ")
        .contains("script sha256 " + sha + " (" + script.length() + " bytes), interpreter bash")
        .contains("INFO stdout| hello world from job-kairos-script")
        .contains("WARN stderr| to stderr");
    try (var left = Files.list(workDir)) {
      assertThat(left).as("the run's directory is removed").isEmpty();
    }
  }

  @Test
  void aNonZeroExitCodeFailsTheRun() throws Exception {
    JobContext context = context(params("sh", "echo 'about to fail'\nexit 3\n"));

    assertThatThrownBy(() -> enabled("sh").execute(context))
        .isInstanceOf(BuiltinRunFailedException.class)
        .hasMessageStartingWith("kairos.script: exit code 3 after ");
    assertThat(context.log().text()).contains("stdout| about to fail");
  }

  @Test
  void theTimeoutKillsTheWholeProcessTree() throws Exception {
    Path pidFile = scratch.resolve("child.pid");
    // The child sleeps far longer than the test; only the kill can end it in time.
    String script = "sleep 300 &\necho $! > \"$1\"\nwait\n";
    JobContext context =
        context(params("bash", script, "args", List.of(pidFile.toString()), "timeoutMs", 1500));
    long start = System.nanoTime();

    assertThatThrownBy(() -> enabled("bash").execute(context))
        .isInstanceOf(BuiltinRunFailedException.class)
        .hasMessageStartingWith("kairos.script: timed out after 1500 ms; killed the process tree");

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    long child = readPid(pidFile);
    assertGone(child);
  }

  @Test
  void anInterruptedRunKillsTheWholeProcessTree() throws Exception {
    Path pidFile = scratch.resolve("child.pid");
    String script = "sleep 300 &\necho $! > \"$1\"\nwait\n";
    JobContext context = context(params("bash", script, "args", List.of(pidFile.toString())));
    ScriptHandler handler = enabled("bash");
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread worker =
        new Thread(
            () -> {
              try {
                handler.execute(context);
              } catch (Throwable t) {
                thrown.set(t);
              }
            },
            "test-script-worker");
    worker.start();
    long child = readPid(pidFile);
    assertThat(ProcessHandle.of(child).map(ProcessHandle::isAlive)).isEqualTo(Optional.of(true));

    worker.interrupt();
    worker.join(DEADLINE.toMillis());

    assertThat(worker.isAlive()).as("the handler returned").isFalse();
    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    assertGone(child);
  }

  @Test
  void backgroundProcessesTheScriptLeavesRunningAreKilled() throws Exception {
    Path pidFile = scratch.resolve("child.pid");
    // The script lives long enough for its child to be seen, then exits without waiting for it.
    String script = "sleep 300 &\necho $! > \"$1\"\nsleep 1\nexit 0\n";
    JobContext context = context(params("sh", script, "args", List.of(pidFile.toString())));

    enabled("sh").execute(context);

    assertThat(context.log().text())
        .contains("killed 1 background processes the script left running");
    assertGone(readPid(pidFile));
  }

  @Test
  void outputBeyondTheLineBudgetIsReadAndCounted() throws Exception {
    JobContext context =
        context(params("sh", "i=0; while [ $i -lt 500 ]; do echo line $i; i=$((i+1)); done"));

    enabled("sh").execute(context);

    String log = context.log().text();
    assertThat(log).contains("stdout| line 0").contains("480 more output lines not logged");
  }

  @Test
  void aWorkDirOthersCanWriteToRunsNothing() throws Exception {
    Path shared = Files.createDirectory(scratch.resolve("shared"));
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
    ScriptHandler handler =
        new ScriptHandler(
            new ScriptSettings(
                true, List.of("sh"), shared, Duration.ofMinutes(1), Duration.ofSeconds(2), 20));
    Path marker = scratch.resolve("ran");

    assertThatThrownBy(() -> handler.execute(context(params("sh", "touch '" + marker + "'"))))
        .isInstanceOf(BuiltinRunFailedException.class)
        .hasMessageContaining("must be owned by the executor's user and writable by no one else");
    assertThat(marker).doesNotExist();
    try (var left = Files.list(shared)) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void badParamsFailTheRunNamingTheField() {
    ScriptHandler handler = enabled("sh");
    Map<String, String> cases =
        Map.of(
            "{\"interpreter\":\"sh\"}", "field \"script\": is required",
            "{\"script\":\"echo\"}", "field \"interpreter\": is required",
            "{\"interpreter\":\"sh\",\"script\":\"echo\",\"args\":\"a b\"}", "field \"args\"",
            "{\"interpreter\":\"sh\",\"script\":\"echo\",\"timeoutMs\":-1}", "field \"timeoutMs\"",
            "{\"interpreter\":\"sh\",\"script\":\"echo\",\"env\":{}}", "field \"env\": unknown");
    cases.forEach(
        (params, expected) ->
            assertThatThrownBy(() -> handler.execute(context(params)))
                .as(params)
                .isInstanceOf(InvalidParamsException.class)
                .hasMessageContaining(expected));
  }
}
