package dev.kairos.node.api.workflow;

import dev.kairos.workflow.WorkflowDefinition;
import java.util.List;

/** The export (and import) document: workflow definitions, their versions ignored on import. */
record WorkflowExport(List<WorkflowDefinition> workflows) {}
