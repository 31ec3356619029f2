package dev.kairos.node.cluster;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns a timing violation into Boot's short "APPLICATION FAILED TO START" report. */
class InvalidTimingFailureAnalyzer extends AbstractFailureAnalyzer<InvalidTimingException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, InvalidTimingException cause) {
    return new FailureAnalysis(
        cause.getMessage(),
        "Change the named properties so every rule holds; docs/configuration.md explains each"
            + " rule and why it exists.",
        cause);
  }
}
