package dev.kairos.compat.xxljob;

import com.xxl.job.core.context.XxlJobContext;
import dev.kairos.mq.executor.JobContext;
import dev.kairos.mq.executor.JobLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Runs one {@code @XxlJob} method the way xxl-job's executor does, on Kairos' run: xxl-job's
 * thread-local {@link XxlJobContext} is set before the method and cleared after it, so {@code
 * XxlJobHelper} answers from Kairos' {@link JobContext}:
 *
 * <ul>
 *   <li>{@code getJobParam()} ← params; {@code getShardIndex()/getShardTotal()} ← the broadcast
 *       shard (0 of 1 when not broadcast); {@code getJobId()} ← {@link XxlJobIds#numeric}.
 *   <li>{@code log(...)} → the run's log ({@link JobLog}, kept with the trigger's result).
 *       xxl-job-core writes these lines to the context's log file only, so each run gets a file
 *       that is read into the run's log when the method returns, then deleted.
 *   <li>{@code handleSuccess(msg)} → SUCCESS with msg as the run's message; {@code handleFail},
 *       {@code handleTimeout} or any other code → FAIL with {@link XxlJobHandleException}. A method
 *       that throws fails with its exception, as in xxl-job.
 * </ul>
 *
 * Stateless; each call runs on the worker thread Kairos gave the run.
 */
final class XxlJobRun {

  private XxlJobRun() {}

  static void run(JobContext context, Path logDir, Callable<?> method) throws Exception {
    Path logFile = Files.createTempFile(Files.createDirectories(logDir), "run-", ".log");
    XxlJobContext xxl =
        XxlJobContexts.create(
            XxlJobIds.numeric(context.jobId()),
            context.params(),
            -1,
            context.scheduledFireMs(),
            logFile.toString(),
            context.shardIndex(),
            context.shardTotal());
    XxlJobContext.setXxlJobContext(xxl);
    try {
      method.call();
    } finally {
      // Safety: cleared before anything else can throw, so a pooled worker thread never carries
      // this run's context into the next handler it runs.
      XxlJobContext.setXxlJobContext(null);
      copyLog(logFile, context.log());
    }
    conclude(xxl.getHandleCode(), xxl.getHandleMsg(), context.log());
  }

  /** Maps xxl-job's handle code (200 success, 500 fail, 502 timeout) onto the run's outcome. */
  static void conclude(int handleCode, String handleMsg, JobLog log) throws XxlJobHandleException {
    switch (handleCode) {
      case XxlJobContext.HANDLE_CODE_SUCCESS -> {
        if (handleMsg != null) {
          log.setMessage(handleMsg);
        }
      }
      case XxlJobContext.HANDLE_CODE_FAIL ->
          throw new XxlJobHandleException("handleFail", handleMsg);
      case XxlJobContext.HANDLE_CODE_TIMEOUT ->
          throw new XxlJobHandleException("handleTimeout", handleMsg);
      default -> throw new XxlJobHandleException("handleResult(" + handleCode + ")", handleMsg);
    }
  }

  private static void copyLog(Path logFile, JobLog log) {
    try {
      List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
      for (String line : lines) {
        log.info("{}", line);
      }
    } catch (IOException e) {
      log.warn("the XxlJobHelper.log lines of this run could not be read: {}", e.toString());
    } finally {
      try {
        Files.deleteIfExists(logFile);
      } catch (IOException e) {
        log.warn("could not delete {}: {}", logFile, e.toString());
      }
    }
  }
}
