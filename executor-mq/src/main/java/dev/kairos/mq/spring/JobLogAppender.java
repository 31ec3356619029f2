package dev.kairos.mq.spring;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import dev.kairos.mq.executor.JobLog;

/**
 * Adds what a handler logs through its own SLF4J loggers to its trigger's log: attached to the root
 * logger, it takes events logged on a worker thread while a handler runs there ({@link
 * JobLog#current()}), at INFO or above by default. Lines of {@code kairos.job.*} are skipped: they
 * are {@link JobLog}'s own output, already in the trigger's log. Lines a handler logs from threads
 * it starts are not taken (no run is bound to them); such code logs through {@code ctx.log()}.
 *
 * <p>Cost when no handler runs on the thread: one ThreadLocal read per logging event that passed
 * the logger's level.
 */
final class JobLogAppender extends AppenderBase<ILoggingEvent> {

  static final String NAME = "KAIROS_JOB_LOG";

  private final Level threshold;

  JobLogAppender(Level threshold) {
    this.threshold = threshold;
    setName(NAME);
  }

  @Override
  protected void append(ILoggingEvent event) {
    JobLog log = JobLog.current();
    if (log == null
        || !event.getLevel().isGreaterOrEqual(threshold)
        || event.getLoggerName().startsWith("kairos.job.")) {
      return;
    }
    String text = event.getFormattedMessage();
    IThrowableProxy thrown = event.getThrowableProxy();
    if (thrown != null) {
      text = text + ": " + thrown.getClassName() + ": " + thrown.getMessage();
    }
    log.append(event.getLevel().toString(), text);
  }
}
