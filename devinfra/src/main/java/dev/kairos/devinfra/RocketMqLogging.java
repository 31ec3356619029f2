package dev.kairos.devinfra;

import org.apache.rocketmq.logging.ch.qos.logback.classic.Level;
import org.apache.rocketmq.logging.ch.qos.logback.classic.Logger;
import org.apache.rocketmq.logging.ch.qos.logback.classic.LoggerContext;
import org.apache.rocketmq.logging.org.slf4j.LoggerFactory;

/**
 * RocketMQ's own logging (a shaded logback, configured by {@code rmq.logback-test.xml}), shared by
 * the embedded broker and every RocketMQ client in this JVM.
 */
public final class RocketMqLogging {

  private RocketMqLogging() {}

  /**
   * Mutes it for the rest of the JVM's life. For an orderly stop of a JVM that hosts both the
   * broker and its clients (the demo): a client shut down with a long poll in flight (up to 20 s,
   * not configurable on the lite pull consumer) reports the connection it closed itself as an
   * error, and the broker reports that it could not answer on it. Neither says anything an operator
   * can act on.
   */
  public static void muteForShutdown() {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
      context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.OFF);
    }
  }
}
