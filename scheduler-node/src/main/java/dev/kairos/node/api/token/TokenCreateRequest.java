package dev.kairos.node.api.token;

import dev.kairos.node.api.web.StrictJson;
import dev.kairos.security.Role;
import java.time.Instant;
import java.util.List;

/**
 * A token an admin asks for.
 *
 * @param name what it is for, 1-64 characters of [A-Za-z0-9_.@-]
 * @param owner who answers for it (a person or team)
 * @param role ADMIN, OPERATOR, VIEWER or METRICS
 * @param apps the apps an OPERATOR (required) or VIEWER (absent: all) token is limited to
 * @param expiresAt when it stops working; absent: 90 days from now; at most 730 days ahead
 */
public record TokenCreateRequest(
    String name, String owner, Role role, List<String> apps, Instant expiresAt)
    implements StrictJson {}
