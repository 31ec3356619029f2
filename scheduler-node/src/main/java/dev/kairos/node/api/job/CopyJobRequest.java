package dev.kairos.node.api.job;

import dev.kairos.node.api.web.StrictJson;

/**
 * Optional body of "copy a job".
 *
 * @param id the copy's id; absent: {@code <source>-copy}, or {@code <source>-copy-<n>} when taken
 */
public record CopyJobRequest(String id) implements StrictJson {}
