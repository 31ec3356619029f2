package dev.kairos.workflow;

import dev.kairos.core.error.KairosException;

/** A write named a version the workflow is no longer at. */
public final class WorkflowVersionConflictException extends KairosException {
  public WorkflowVersionConflictException(String id, long expected) {
    super("workflow " + id + " is no longer at version " + expected);
  }
}
