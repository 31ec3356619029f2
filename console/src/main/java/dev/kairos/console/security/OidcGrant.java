package dev.kairos.console.security;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The role and apps an identity provider's groups give a person: {@code <prefix>admin} makes an
 * ADMIN; else {@code <prefix>operator:<app>} an OPERATOR of those apps; else {@code
 * <prefix>viewer:<app>} a VIEWER of those apps, or {@code <prefix>viewer} of all. Other groups are
 * ignored; no Kairos group, no sign-in.
 *
 * @param role ADMIN, OPERATOR or VIEWER
 * @param apps the apps an OPERATOR or VIEWER is limited to; empty: all (a VIEWER) or none needed
 */
public record OidcGrant(String role, List<String> apps) {

  public static Optional<OidcGrant> of(Collection<String> groups, String prefix) {
    if (groups == null) {
      return Optional.empty();
    }
    boolean admin = false;
    boolean viewerOfAll = false;
    TreeSet<String> operated = new TreeSet<>();
    TreeSet<String> viewed = new TreeSet<>();
    for (String group : groups) {
      if (group == null || !group.startsWith(prefix)) {
        continue;
      }
      String grant = group.substring(prefix.length());
      if (grant.equals("admin")) {
        admin = true;
      } else if (grant.equals("viewer")) {
        viewerOfAll = true;
      } else if (grant.startsWith("operator:") && grant.length() > "operator:".length()) {
        operated.add(grant.substring("operator:".length()));
      } else if (grant.startsWith("viewer:") && grant.length() > "viewer:".length()) {
        viewed.add(grant.substring("viewer:".length()));
      }
    }
    if (admin) {
      return Optional.of(new OidcGrant("ADMIN", List.of()));
    }
    if (!operated.isEmpty()) {
      return Optional.of(new OidcGrant("OPERATOR", new ArrayList<>(operated)));
    }
    if (viewerOfAll) {
      return Optional.of(new OidcGrant("VIEWER", List.of()));
    }
    if (!viewed.isEmpty()) {
      return Optional.of(new OidcGrant("VIEWER", new ArrayList<>(viewed)));
    }
    return Optional.empty();
  }
}
