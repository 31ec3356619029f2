package dev.kairos.security;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The apps a token's role applies to: all of them, or a named set. A team's OPERATOR token of apps
 * {@code pay} and {@code ledger} reads and writes those apps' jobs and triggers, and the cluster
 * answers as if no other app existed.
 */
public final class AppScope {

  private static final AppScope ALL = new AppScope(Set.of());

  /** The largest number of apps one token may name. */
  public static final int MAX_APPS = 100;

  private final Set<String> apps;

  private AppScope(Set<String> apps) {
    this.apps = apps;
  }

  public static AppScope all() {
    return ALL;
  }

  /** The named apps; none means all. */
  public static AppScope of(Collection<String> apps) {
    if (apps == null || apps.isEmpty()) {
      return ALL;
    }
    return new AppScope(Set.copyOf(new TreeSet<>(apps)));
  }

  /** Reads the form {@link #encode()} writes: apps separated by commas, empty for all. */
  public static AppScope decode(String encoded) {
    if (encoded == null || encoded.isBlank()) {
      return ALL;
    }
    return of(List.of(encoded.split(",")));
  }

  /** Apps separated by commas, sorted; empty for all (app names hold no comma). */
  public String encode() {
    return String.join(",", new TreeSet<>(apps));
  }

  public boolean isAll() {
    return apps.isEmpty();
  }

  public boolean allows(String app) {
    return isAll() || (app != null && apps.contains(app));
  }

  /** The named apps, sorted; empty when the scope is all apps. */
  public Set<String> apps() {
    return new TreeSet<>(apps);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AppScope other && apps.equals(other.apps);
  }

  @Override
  public int hashCode() {
    return Objects.hash(apps);
  }

  @Override
  public String toString() {
    return isAll() ? "all apps" : "apps " + encode();
  }
}
