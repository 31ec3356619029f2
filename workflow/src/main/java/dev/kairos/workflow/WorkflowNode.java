package dev.kairos.workflow;

/**
 * One node of a workflow: a job run once per workflow run.
 *
 * @param name unique within the workflow, same characters as a job id
 * @param jobId the job the node triggers; it must belong to the workflow's app
 * @param passResult when true, the node's result message becomes its children's params override
 */
public record WorkflowNode(String name, String jobId, boolean passResult) {}
