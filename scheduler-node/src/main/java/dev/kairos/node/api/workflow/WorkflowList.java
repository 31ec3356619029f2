package dev.kairos.node.api.workflow;

import java.util.List;

/** A list answer: {@code {"items":[...]}}, like the other lists of the API. */
record WorkflowList<T>(List<T> items) {}
