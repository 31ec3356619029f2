package dev.kairos.node.api.job;

/**
 * Something accepted that will not work as the caller may expect.
 *
 * @param code stable: {@code no-live-executor}, {@code no-live-handler}, {@code executors-unknown}
 * @param message in words
 */
public record Warning(String code, String message) {}
