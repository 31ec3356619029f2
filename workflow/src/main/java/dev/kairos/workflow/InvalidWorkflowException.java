package dev.kairos.workflow;

import dev.kairos.core.error.KairosException;
import java.util.List;

/** A workflow definition that breaks a rule; nothing was written. */
public final class InvalidWorkflowException extends KairosException {

  private final transient List<Violation> violations;

  public InvalidWorkflowException(String workflowId, List<Violation> violations) {
    super("workflow " + workflowId + " is invalid: " + violations);
    this.violations = List.copyOf(violations);
  }

  public List<Violation> violations() {
    return violations;
  }
}
