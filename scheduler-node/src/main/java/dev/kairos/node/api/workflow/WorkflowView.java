package dev.kairos.node.api.workflow;

import dev.kairos.workflow.WorkflowDefinition;

/**
 * A workflow as the API shows it: the definition and, for a scheduled enabled one, its next fire.
 */
record WorkflowView(WorkflowDefinition workflow, Long nextFireMs) {}
