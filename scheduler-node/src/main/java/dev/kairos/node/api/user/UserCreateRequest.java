package dev.kairos.node.api.user;

import dev.kairos.node.api.web.StrictJson;
import dev.kairos.security.Role;
import java.util.List;

/**
 * A console user an admin creates. {@link #toString()} leaves the password out.
 *
 * @param username 1-64 characters of [A-Za-z0-9_.@-]
 * @param password 12-256 characters; stored as a PBKDF2 hash only
 * @param role ADMIN, OPERATOR or VIEWER
 * @param apps the apps an OPERATOR (required) or VIEWER (absent: all) is limited to
 */
public record UserCreateRequest(String username, String password, Role role, List<String> apps)
    implements StrictJson {

  @Override
  public String toString() {
    return "UserCreateRequest[" + username + ", " + role + ", " + apps + "]";
  }
}
