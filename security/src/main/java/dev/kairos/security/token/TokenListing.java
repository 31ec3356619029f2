package dev.kairos.security.token;

import java.util.OptionalLong;

/** A stored token as an admin sees it in a list: its record and when it was last used. */
public record TokenListing(RuntimeToken token, OptionalLong lastUsedMs) {}
