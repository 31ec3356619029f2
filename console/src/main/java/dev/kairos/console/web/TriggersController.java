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
 * One trigger's details with its handler log (tailed live while the run goes), cancel, and a job's
 * recent triggers; the search across jobs is {@link TriggerSearchController}.
 */
@Controller
class TriggersController {

  static final int PER_JOB = 20;

  /** Log lines per read: the first render and every tail step. */
  static final int LOG_PAGE = 500;

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
    addLog(id, 0, model);
    return "console/trigger";
  }

  /**
   * The handler log after {@code after}: the new lines, then (while the run goes or more lines
   * wait) a poller that replaces itself with the next ones; htmx tails the log this way and stops
   * once the run has finished and every line is shown.
   */
  @GetMapping("/console/trigger/log")
  String log(@RequestParam String id, @RequestParam(defaultValue = "0") long after, Model model) {
    addLog(id, after, model);
    return "console/trigger-log :: log-lines";
  }

  private void addLog(String id, long after, Model model) {
    ApiResponse page =
        api.get(Paths.trigger(id) + "/log?after=" + Math.max(0, after) + "&limit=" + LOG_PAGE);
    boolean ok = page.ok();
    boolean more = ok && Boolean.TRUE.equals(page.body().get("more"));
    boolean finished = ok && Boolean.TRUE.equals(page.body().get("finished"));
    model.addAttribute("logTriggerId", id);
    model.addAttribute("logLines", ok ? page.list("lines") : List.of());
    model.addAttribute("logNext", ok ? number(page.body().get("nextCursor")) : after);
    model.addAttribute("logMore", more);
    // A failed read keeps polling (slower): a node restart must not end the tail for good.
    model.addAttribute("logPoll", !ok || more || !finished);
    model.addAttribute("logEnded", ok && finished && !more);
    model.addAttribute("logSource", ok ? page.body().get("source") : null);
    model.addAttribute("logProblem", ok ? null : page.problem());
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

  private static long number(Object value) {
    return value instanceof Number n ? n.longValue() : 0L;
  }
}
