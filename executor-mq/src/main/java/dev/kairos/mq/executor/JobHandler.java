package dev.kairos.mq.executor;

/**
 * A job's code. Returning normally is SUCCESS; throwing is FAIL with the exception's text. A
 * handler should stop when its thread is interrupted (timeout, COVER_EARLY) and be idempotent on
 * {@link JobContext#jobId()} + {@link JobContext#scheduledFireMs()} (see docs/executors.md).
 */
@FunctionalInterface
public interface JobHandler {
  void execute(JobContext context) throws Exception;
}
