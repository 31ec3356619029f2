package dev.kairos.console.web;

import dev.kairos.console.api.ApiResponse;
import dev.kairos.console.api.NodeApi;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.util.UriUtils;

/**
 * Workflows: the list, one workflow with its recent runs and a "start now", and one run drawn as a
 * layered table (layer k holds the nodes whose longest path from a root has k edges), each node
 * with its state and trigger ids.
 */
@Controller
class WorkflowsController {

  private final NodeApi api;

  WorkflowsController(NodeApi api) {
    this.api = api;
  }

  @GetMapping("/console/workflows")
  String list(Model model) {
    ApiResponse list = api.get("/api/v1/workflows");
    model.addAttribute("workflows", list.ok() ? list.list("items") : List.of());
    model.addAttribute("problem", list.ok() ? null : list.problem());
    return "console/workflows";
  }

  @GetMapping("/console/workflows/{id}")
  String show(@PathVariable String id, Model model, HttpServletResponse response) {
    ApiResponse workflow = api.get(Paths.workflow(id));
    if (!workflow.ok()) {
      response.setStatus(workflow.status());
      model.addAttribute("problem", workflow.problem());
      return "console/problem";
    }
    ApiResponse runs = api.get(Paths.workflow(id) + "/runs");
    model.addAttribute("workflow", workflow.body().get("workflow"));
    model.addAttribute("nextFireMs", workflow.body().get("nextFireMs"));
    model.addAttribute("runs", runs.ok() ? runs.list("items") : List.of());
    return "console/workflow";
  }

  @PostMapping("/console/workflows/{id}/runs")
  String start(@PathVariable String id, Model model, HttpServletResponse response) {
    ApiResponse started = api.post(Paths.workflow(id) + "/runs", null);
    if (!started.ok()) {
      response.setStatus(started.status());
      model.addAttribute("problem", started.problem());
      return "console/problem";
    }
    return "redirect:/console/workflow-runs/"
        + UriUtils.encodePathSegment(
            String.valueOf(started.body().get("id")), StandardCharsets.UTF_8);
  }

  @GetMapping("/console/workflow-runs/{runId}")
  String run(@PathVariable String runId, Model model, HttpServletResponse response) {
    ApiResponse run = api.get(Paths.workflowRun(runId));
    if (!run.ok()) {
      response.setStatus(run.status());
      model.addAttribute("problem", run.problem());
      return "console/problem";
    }
    model.addAttribute("run", run.body());
    model.addAttribute("layers", layers(run.body()));
    return "console/workflow-run";
  }

  /** The run's nodes in layers, each with its state, trigger ids and incoming edges. */
  @SuppressWarnings("unchecked")
  static List<List<Map<String, Object>>> layers(Map<String, Object> run) {
    Map<String, Object> definition = (Map<String, Object>) run.get("definition");
    Map<String, Object> states = (Map<String, Object>) run.get("nodes");
    List<Map<String, Object>> nodes = (List<Map<String, Object>>) definition.get("nodes");
    List<Map<String, Object>> edges = (List<Map<String, Object>>) definition.get("edges");
    Map<String, Integer> layer = new HashMap<>();
    for (Map<String, Object> n : nodes) {
      layer.put((String) n.get("name"), 0);
    }
    // Longest path from a root: relax every edge once per node (the DAG is at most that deep).
    for (int round = 0; round < nodes.size(); round++) {
      boolean moved = false;
      for (Map<String, Object> e : edges) {
        int next = layer.getOrDefault((String) e.get("from"), 0) + 1;
        if (next > layer.getOrDefault((String) e.get("to"), 0)) {
          layer.put((String) e.get("to"), next);
          moved = true;
        }
      }
      if (!moved) {
        break;
      }
    }
    int depth = layer.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    List<List<Map<String, Object>>> out = new ArrayList<>();
    for (int i = 0; i <= depth; i++) {
      out.add(new ArrayList<>());
    }
    for (Map<String, Object> n : nodes) {
      String name = (String) n.get("name");
      Map<String, Object> state = (Map<String, Object>) states.getOrDefault(name, Map.of());
      List<String> upstream = new ArrayList<>();
      for (Map<String, Object> e : edges) {
        if (name.equals(e.get("to"))) {
          upstream.add(e.get("from") + " (" + e.get("on") + ")");
        }
      }
      Map<String, Object> cell = new LinkedHashMap<>();
      cell.put("name", name);
      cell.put("jobId", n.get("jobId"));
      cell.put("state", state.get("state"));
      cell.put("triggerIds", state.getOrDefault("triggerIds", List.of()));
      cell.put("upstream", upstream);
      out.get(layer.get(name)).add(cell);
    }
    return out;
  }
}
