package dev.kairos.node.api.web;

/**
 * Marks an API request body read strictly: unknown fields, duplicate keys, trailing content and
 * scalar coercions ({@code "5"} for a number, {@code 1} for a boolean or a string) are 400s naming
 * the field instead of being guessed at. Only request types carry it, so the internal cluster
 * messages keep Spring's lenient reading (rolling upgrades add fields).
 */
public interface StrictJson {}
