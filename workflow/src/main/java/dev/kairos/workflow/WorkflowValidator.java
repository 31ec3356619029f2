package dev.kairos.workflow;

import dev.kairos.core.model.JobId;
import dev.kairos.core.model.ScheduleType;
import dev.kairos.core.schedule.CronDialect;
import dev.kairos.core.schedule.InvalidScheduleException;
import dev.kairos.core.schedule.Schedules;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The rules of a workflow definition: an id and app, 1 to {@code maxNodes} nodes with unique names,
 * edges between known nodes and no cycle (the cycle is named), a parsable schedule, and every
 * node's job existing in the workflow's app (at write time). Pure: the jobs' apps come in as a
 * function.
 */
public final class WorkflowValidator {

  /** The default bound on a workflow's nodes ({@code kairos.workflow.max-nodes}). */
  public static final int DEFAULT_MAX_NODES = 200;

  /** Ids the API's paths take ({@code /api/v1/workflows/export}, {@code .../import}). */
  static final Set<String> RESERVED_IDS = Set.of("export", "import");

  private final int maxNodes;

  public WorkflowValidator(int maxNodes) {
    if (maxNodes < 1) {
      throw new IllegalArgumentException("maxNodes must be >= 1 but was " + maxNodes);
    }
    this.maxNodes = maxNodes;
  }

  /**
   * @param appOfJob the app of a stored job, empty when there is no such job
   * @return every broken rule, empty when the definition is valid
   */
  public List<Violation> check(WorkflowDefinition w, Function<String, Optional<String>> appOfJob) {
    List<Violation> out = new ArrayList<>();
    if (!JobId.isValid(w.id())) {
      out.add(new Violation("id", "must be 1-64 characters of [A-Za-z0-9_.-]"));
    } else if (RESERVED_IDS.contains(w.id())) {
      out.add(new Violation("id", "'" + w.id() + "' is reserved (an API path)"));
    }
    if (w.app() == null || w.app().isBlank()) {
      out.add(new Violation("app", "is required"));
    }
    if (w.schedule() != null) {
      schedule(w.schedule(), out);
    }
    if (w.nodes().isEmpty()) {
      out.add(new Violation("nodes", "needs at least one node"));
      return out;
    }
    if (w.nodes().size() > maxNodes) {
      out.add(
          new Violation(
              "nodes", "has " + w.nodes().size() + " nodes; at most " + maxNodes + " are allowed"));
      return out;
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < w.nodes().size(); i++) {
      WorkflowNode n = w.nodes().get(i);
      String field = "nodes[" + i + "]";
      if (n == null) {
        out.add(new Violation(field, "is null"));
        continue;
      }
      if (!JobId.isValid(n.name())) {
        out.add(new Violation(field + ".name", "must be 1-64 characters of [A-Za-z0-9_.-]"));
      } else if (!names.add(n.name())) {
        out.add(new Violation(field + ".name", "'" + n.name() + "' is used by another node"));
      }
      if (!JobId.isValid(n.jobId())) {
        out.add(new Violation(field + ".jobId", "must be a job id"));
      } else if (w.app() != null) {
        Optional<String> app = appOfJob.apply(n.jobId());
        if (app.isEmpty()) {
          out.add(new Violation(field + ".jobId", "no job '" + n.jobId() + "'"));
        } else if (!app.get().equals(w.app())) {
          out.add(
              new Violation(
                  field + ".jobId",
                  "job '" + n.jobId() + "' belongs to another app than " + w.app()));
        }
      }
    }
    boolean edgesOk = true;
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < w.edges().size(); i++) {
      WorkflowEdge e = w.edges().get(i);
      String field = "edges[" + i + "]";
      if (e == null) {
        out.add(new Violation(field, "is null"));
        edgesOk = false;
        continue;
      }
      if (!names.contains(e.from())) {
        out.add(new Violation(field + ".from", "no node '" + e.from() + "'"));
        edgesOk = false;
      }
      if (!names.contains(e.to())) {
        out.add(new Violation(field + ".to", "no node '" + e.to() + "'"));
        edgesOk = false;
      }
      if (e.from() != null && e.from().equals(e.to())) {
        out.add(new Violation(field, "node '" + e.from() + "' cannot follow itself"));
        edgesOk = false;
      } else if (!seen.add(e.from() + "\n" + e.to())) {
        out.add(new Violation(field, "a second edge " + e.from() + " -> " + e.to()));
        edgesOk = false;
      }
    }
    if (edgesOk) {
      findCycle(w)
          .ifPresent(
              cycle ->
                  out.add(new Violation("edges", "form a cycle: " + String.join(" -> ", cycle))));
    }
    return out;
  }

  /** Throws {@link InvalidWorkflowException} listing every broken rule. */
  public void require(WorkflowDefinition w, Function<String, Optional<String>> appOfJob) {
    List<Violation> v = check(w, appOfJob);
    if (!v.isEmpty()) {
      throw new InvalidWorkflowException(w.id(), v);
    }
  }

  private static void schedule(WorkflowSchedule s, List<Violation> out) {
    java.time.ZoneId zone;
    try {
      zone = Schedules.zone(s.zone());
    } catch (InvalidScheduleException e) {
      out.add(new Violation("schedule.zone", e.getMessage()));
      return;
    }
    try {
      Schedules.parse(
          ScheduleType.CRON, s.cron() == null ? "" : s.cron(), zone, CronDialect.DEFAULT, 0);
    } catch (InvalidScheduleException e) {
      out.add(new Violation("schedule.cron", e.getMessage()));
    }
  }

  /** A cycle as the node names along it, first name repeated at the end; empty for a DAG. */
  static Optional<List<String>> findCycle(WorkflowDefinition w) {
    Map<String, List<String>> out = new HashMap<>();
    for (WorkflowEdge e : w.edges()) {
      out.computeIfAbsent(e.from(), k -> new ArrayList<>()).add(e.to());
    }
    Map<String, Integer> color = new HashMap<>(); // absent white, 1 grey, 2 black
    for (WorkflowNode n : w.nodes()) {
      List<String> path = new ArrayList<>();
      Optional<List<String>> c = visit(n.name(), out, color, path);
      if (c.isPresent()) {
        return c;
      }
    }
    return Optional.empty();
  }

  private static Optional<List<String>> visit(
      String node, Map<String, List<String>> out, Map<String, Integer> color, List<String> path) {
    Integer c = color.get(node);
    if (c != null && c == 2) {
      return Optional.empty();
    }
    if (c != null && c == 1) {
      List<String> cycle = new ArrayList<>(path.subList(path.indexOf(node), path.size()));
      cycle.add(node);
      return Optional.of(cycle);
    }
    color.put(node, 1);
    path.add(node);
    for (String next : out.getOrDefault(node, List.of())) {
      Optional<List<String>> found = visit(next, out, color, path);
      if (found.isPresent()) {
        return found;
      }
    }
    path.remove(path.size() - 1);
    color.put(node, 2);
    return Optional.empty();
  }
}
