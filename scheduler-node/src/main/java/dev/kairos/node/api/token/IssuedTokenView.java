package dev.kairos.node.api.token;

/**
 * The answer to a token's creation: the only time the token itself is shown. Store it now; the
 * cluster keeps only its SHA-256.
 */
public record IssuedTokenView(String token, TokenView details) {

  @Override
  public String toString() {
    return "IssuedTokenView[" + details + "]";
  }
}
