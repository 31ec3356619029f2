package dev.kairos.console.web;

import dev.kairos.console.api.ApiResponse;
import dev.kairos.console.api.NodeApi;
import java.util.List;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/** Executors: every app a job names, its live slot leases (instance, host, renewal, busy). */
@Controller
class ExecutorsController {

  private final NodeApi api;

  ExecutorsController(NodeApi api) {
    this.api = api;
  }

  @GetMapping("/console/executors")
  String executors(Model model) {
    ApiResponse apps = api.get("/api/v1/executors");
    model.addAttribute("apps", apps.ok() ? apps.list("items") : List.of());
    model.addAttribute("problem", apps.ok() ? null : apps.problem());
    return "console/executors";
  }
}
