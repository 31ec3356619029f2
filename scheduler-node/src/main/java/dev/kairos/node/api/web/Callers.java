package dev.kairos.node.api.web;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.store.JobStore;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.node.api.security.ApiTokenIntrospector;
import dev.kairos.security.Access;
import dev.kairos.security.AppScope;
import dev.kairos.security.Role;
import java.util.function.Supplier;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.core.OAuth2AuthenticatedPrincipal;

/**
 * The caller of the request being served, as an {@link Access}: the role and apps its token
 * carries. The security chain has already let the role through; this is the per-app half, asked by
 * each endpoint about the app of what it reads or writes. What lies outside the caller's apps
 * answers 404 as if it did not exist, so a team cannot even learn another team's job ids.
 */
public final class Callers {

  private Callers() {}

  public static Access current() {
    Authentication auth = SecurityContextHolder.getContext().getAuthentication();
    if (auth == null) {
      // Not a request: the node calling its own code (and unit tests without the chain), as
      // ParamsRedaction treats it. Every /api request is authenticated by the chain.
      return new Access(Role.ADMIN, AppScope.all());
    }
    if (auth.getPrincipal() instanceof OAuth2AuthenticatedPrincipal p) {
      String role = p.getAttribute(ApiTokenIntrospector.ROLE_ATTRIBUTE);
      String apps = p.getAttribute(ApiTokenIntrospector.APPS_ATTRIBUTE);
      if (role != null) {
        return new Access(Role.valueOf(role), AppScope.decode(apps));
      }
    }
    // An anonymous request on an open path: it may touch no app.
    return new Access(Role.METRICS, AppScope.all());
  }

  /**
   * Lets a read of something of {@code app} through, or throws {@code notFound}: what lies outside
   * the caller's apps does not exist for it.
   */
  public static void requireRead(String app, Supplier<? extends RuntimeException> notFound) {
    if (!current().canRead(app)) {
      throw notFound.get();
    }
  }

  /**
   * Lets a write to something existing of {@code app} through; throws {@code notFound} when the
   * caller may not even read it, 403 when it may read but not write.
   */
  public static void requireWrite(String app, Supplier<? extends RuntimeException> notFound) {
    Access access = current();
    if (!access.canRead(app)) {
      throw notFound.get();
    }
    if (!access.canWrite(app)) {
      throw new ApiProblemException(
          ProblemType.FORBIDDEN, "this token may not change app " + app + "'s jobs");
    }
  }

  /**
   * Lets a read of something of job {@code jobId} (its triggers, its log, its history) through, or
   * throws {@code notFound}. A caller of every app costs nothing; a scoped one one job read, and a
   * deleted job's triggers are not its to read.
   */
  public static void requireReadOfJob(
      JobStore store, String jobId, Supplier<? extends RuntimeException> notFound) {
    Access access = current();
    if (access.seesAllApps() && access.role() != Role.METRICS) {
      return;
    }
    String app = store.get(jobId).map(JobDefinition::app).orElse(null);
    if (app == null || !access.canRead(app)) {
      throw notFound.get();
    }
  }

  /** As {@link #requireReadOfJob}, for a change (a cancel): 403 where it may read, not write. */
  public static void requireWriteOfJob(
      JobStore store, String jobId, Supplier<? extends RuntimeException> notFound) {
    Access access = current();
    if (access.seesAllApps() && access.isAdmin()) {
      return;
    }
    String app = store.get(jobId).map(JobDefinition::app).orElse(null);
    if (app == null) {
      throw notFound.get();
    }
    requireWrite(app, notFound);
  }

  /**
   * The app a query over many jobs' history reads for this caller: the one it names if it is the
   * caller's (an app outside its scope answers 404, like a missing one), else the caller's only
   * app; a caller of several apps must name one (400), a caller of every app may name none (null).
   */
  public static String appOfQuery(String requested) {
    Access access = current();
    if (access.seesAllApps()) {
      return requested;
    }
    if (requested != null) {
      if (!access.canRead(requested)) {
        throw new ApiProblemException(ProblemType.NOT_FOUND, "no app " + requested);
      }
      return requested;
    }
    if (access.scope().apps().size() == 1) {
      return access.scope().apps().iterator().next();
    }
    throw ApiProblemException.field(
        ProblemType.INVALID_FIELD,
        "app",
        "this token reads " + access.scope() + ": name one of them");
  }

  /** For something new in {@code app} (a job created or imported there): 403 naming the field. */
  public static void requireWriteNew(String app, String field) {
    if (app == null || app.isBlank()) {
      return; // no app at all: the job's validation names the field
    }
    if (!current().canWrite(app)) {
      throw ApiProblemException.field(
          ProblemType.FORBIDDEN, field, "this token may not write jobs of app " + app);
    }
  }
}
