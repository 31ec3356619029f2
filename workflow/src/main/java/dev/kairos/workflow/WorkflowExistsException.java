package dev.kairos.workflow;

import dev.kairos.core.error.KairosException;

/** A create named a workflow id already taken. */
public final class WorkflowExistsException extends KairosException {
  public WorkflowExistsException(String id) {
    super("workflow " + id + " already exists");
  }
}
