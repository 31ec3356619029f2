package dev.kairos.node.api.problem;

/**
 * One offending field of a request.
 *
 * @param field JSON path of the field in the request ({@code schedule}, {@code jobs[2].zone}), a
 *     query parameter name, or a header name ({@code If-Match})
 * @param message what is wrong with it
 */
public record FieldError(String field, String message) {}
