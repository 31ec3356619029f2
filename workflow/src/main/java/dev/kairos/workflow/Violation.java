package dev.kairos.workflow;

/** One broken rule of a workflow definition, naming the field ({@code nodes[2].jobId}). */
public record Violation(String field, String message) {}
