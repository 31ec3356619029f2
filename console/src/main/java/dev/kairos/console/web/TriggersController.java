package dev.kairos.console.web;

import dev.kairos.console.api.ApiResponse;
import dev.kairos.console.api.NodeApi;
import dev.kairos.core.model.TriggerState;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * One trigger's details and cancel, and a job's recent triggers; the search across jobs is {@link
 * TriggerSearchController}.
 */
@Controller
class TriggersController {

  static final int PER_JOB = 20;

  private final NodeApi api;

  TriggersController(NodeApi api) {
    this.api = api;
  }

  @GetMapping("/console/trigger")
  String show(@RequestParam String id, Model model, HttpServletResponse response) {
    ApiResponse trigger = api.get(Paths.trigger(id));
    if (!trigger.ok()) {
      response.setStatus(trigger.status());
      model.addAttribute("problem", trigger.problem());
      return "console/problem";
    }
    model.addAttribute("trigger", trigger.body());
    model.addAttribute("final", isFinal(trigger.body().get("state")));
    return "console/trigger";
  }

  /** The job page's trigger table, polled by htmx so a fire shows up without a reload. */
  @GetMapping("/console/jobs/{id}/triggers")
  String ofJob(@PathVariable String id, Model model) {
    ApiResponse triggers = api.get(Paths.job(id) + "/triggers?size=" + PER_JOB);
    model.addAttribute("job", Map.of("id", id));
    model.addAttribute("triggers", triggers.ok() ? triggers.list("items") : List.of());
    model.addAttribute("triggerSource", triggers.body().get("source"));
    return "console/fragments :: job-triggers";
  }

  @PostMapping("/console/trigger/cancel")
  String cancel(@RequestParam String id, RedirectAttributes redirect) {
    ApiResponse answer = api.post(Paths.trigger(id) + "/cancel", null);
    if (answer.ok()) {
      redirect.addFlashAttribute(
          "notice", "Cancel of " + id + ": " + answer.body().get("outcome") + ".");
    } else {
      redirect.addFlashAttribute("problem", answer.problem());
    }
    redirect.addAttribute("id", id);
    return "redirect:/console/trigger";
  }

  static boolean isFinal(Object state) {
    try {
      return state != null && TriggerState.valueOf(String.valueOf(state)).isTerminal();
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
