package dev.kairos.node.api.user;

import dev.kairos.node.api.web.StrictJson;

/** A user's new password, 12-256 characters. */
public record PasswordChangeRequest(String password) implements StrictJson {

  @Override
  public String toString() {
    return "PasswordChangeRequest[***]";
  }
}
