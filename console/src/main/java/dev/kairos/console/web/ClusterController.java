package dev.kairos.console.web;

import dev.kairos.console.api.ApiResponse;
import dev.kairos.console.api.NodeApi;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** Cluster: leader, term, members, wheels, lags, and the cluster-wide pause. */
@Controller
class ClusterController {

  private final NodeApi api;

  ClusterController(NodeApi api) {
    this.api = api;
  }

  @GetMapping("/console/cluster")
  String cluster(Model model) {
    ApiResponse cluster = api.get("/api/v1/cluster");
    ApiResponse pause = api.get("/api/v1/cluster/pause");
    model.addAttribute("cluster", cluster.ok() ? cluster.body() : null);
    model.addAttribute("pause", pause.ok() ? pause.body() : null);
    model.addAttribute("problem", cluster.ok() ? null : cluster.problem());
    return "console/cluster";
  }

  @PostMapping("/console/cluster/pause")
  String pause(RedirectAttributes redirect) {
    return change("/api/v1/cluster/pause", "Scheduling paused cluster-wide.", redirect);
  }

  @PostMapping("/console/cluster/resume")
  String resume(RedirectAttributes redirect) {
    return change("/api/v1/cluster/resume", "Scheduling resumed.", redirect);
  }

  private String change(String path, String done, RedirectAttributes redirect) {
    ApiResponse answer = api.post(path, null);
    if (answer.ok()) {
      redirect.addFlashAttribute("notice", done);
    } else {
      redirect.addFlashAttribute("problem", answer.problem());
    }
    return "redirect:/console/cluster";
  }
}
