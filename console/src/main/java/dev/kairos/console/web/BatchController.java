package dev.kairos.console.web;

import dev.kairos.console.api.ApiResponse;
import dev.kairos.console.api.NodeApi;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * Batch actions on the jobs ticked in the list: one call to the API's job batches, whose per-id
 * outcome (DONE or NOT_FOUND) is summed up in the notice.
 */
@Controller
class BatchController {

  static final Set<String> ACTIONS = Set.of("enable", "disable", "delete");

  private final NodeApi api;

  BatchController(NodeApi api) {
    this.api = api;
  }

  @PostMapping("/console/job-batches")
  String batch(
      @RequestParam String action,
      @RequestParam(required = false) List<String> ids,
      RedirectAttributes redirect) {
    if (!ACTIONS.contains(action)) {
      redirect.addFlashAttribute("notice", "Unknown batch action '" + action + "': nothing done.");
      return "redirect:/console/jobs";
    }
    if (ids == null || ids.isEmpty()) {
      redirect.addFlashAttribute("notice", "Tick at least one job: nothing done.");
      return "redirect:/console/jobs";
    }
    ApiResponse answer = api.post("/api/v1/job-batches/" + action, Map.of("ids", ids));
    if (answer.ok()) {
      redirect.addFlashAttribute(
          "notice",
          "Batch "
              + action
              + ": "
              + answer.body().get("succeeded")
              + " done, "
              + answer.body().get("notFound")
              + " not found.");
    } else {
      redirect.addFlashAttribute("problem", answer.problem());
    }
    return "redirect:/console/jobs";
  }
}
