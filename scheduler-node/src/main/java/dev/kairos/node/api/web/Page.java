package dev.kairos.node.api.web;

import java.util.List;

/**
 * One page of a list.
 *
 * @param total items matching the request over all pages
 */
public record Page<T>(List<T> items, int page, int size, long total) {}
