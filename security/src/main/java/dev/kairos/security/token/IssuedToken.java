package dev.kairos.security.token;

/**
 * A token just created: its record and the secret, which exists only here and in the one response
 * that hands it to the admin. {@link #toString()} leaves the secret out.
 */
public record IssuedToken(RuntimeToken token, String secret) {

  @Override
  public String toString() {
    return "IssuedToken[" + token + "]";
  }
}
