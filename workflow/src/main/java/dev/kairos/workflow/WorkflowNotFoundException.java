package dev.kairos.workflow;

import dev.kairos.core.error.KairosException;

/** No workflow (or workflow run) with this id. */
public final class WorkflowNotFoundException extends KairosException {
  public WorkflowNotFoundException(String id) {
    super("no workflow or workflow run " + id);
  }
}
