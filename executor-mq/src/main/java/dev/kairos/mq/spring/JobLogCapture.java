package dev.kairos.mq.spring;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.LoggerFactory;

/**
 * Attaches a {@link JobLogAppender} to Logback's root logger while the context runs, so handlers'
 * own SLF4J lines (INFO and above, on the worker thread) join their triggers' logs. Does nothing
 * when SLF4J is not bound to Logback. {@link #close()} detaches it; twice is a no-op.
 */
final class JobLogCapture implements AutoCloseable {

  private final AtomicBoolean closed = new AtomicBoolean();
  private final JobLogAppender appender;
  private final Logger root;

  JobLogCapture() {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
      appender = new JobLogAppender(Level.INFO);
      appender.setContext(context);
      appender.start();
      root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
      root.addAppender(appender);
    } else {
      appender = null;
      root = null;
    }
  }

  boolean attached() {
    return appender != null && !closed.get();
  }

  @Override
  public void close() {
    if (appender == null || !closed.compareAndSet(false, true)) {
      return;
    }
    root.detachAppender(appender);
    appender.stop();
  }
}
