package dev.kairos.node.api.workflow;

import java.util.List;

/** What an import did, by workflow id. */
record WorkflowImportResult(List<String> created, List<String> updated, List<String> unchanged) {}
