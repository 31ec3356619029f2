package dev.kairos.node.api.user;

import dev.kairos.security.Role;
import dev.kairos.security.user.LocalUser;
import java.time.Instant;
import java.util.List;

/** A console user as the API shows it: never the password or its hash. */
public record UserView(
    String username, Role role, List<String> apps, Instant createdAt, String createdBy) {

  static UserView of(LocalUser user) {
    return new UserView(
        user.username(),
        user.role(),
        user.apps(),
        Instant.ofEpochMilli(user.createdMs()),
        user.createdBy());
  }
}
