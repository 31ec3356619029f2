package dev.kairos.node.api.app;

import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.node.api.web.StrictJson;

/**
 * The settings of an executor app as a client writes them (a full replacement).
 *
 * @param description free text, at most 1000 characters; absent: none
 * @param defaultRouting routing of the app's jobs created without one; absent: the global default
 *     (CONSISTENT_HASH)
 */
public record AppSettingsRequest(String description, RoutingStrategy defaultRouting)
    implements StrictJson {}
