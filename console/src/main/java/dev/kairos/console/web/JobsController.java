package dev.kairos.console.web;

import dev.kairos.console.api.ApiProblem;
import dev.kairos.console.api.ApiResponse;
import dev.kairos.console.api.NodeApi;
import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.model.MisfireStrategy;
import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.core.model.ScheduleType;
import dev.kairos.core.schedule.CronDialect;
import jakarta.servlet.http.HttpServletResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * Jobs: the filtered list, one job with its next fires and recent triggers, the create and edit
 * form, and the one-click actions (enable, disable, copy, trigger now, delete). Each is one call to
 * the node's admin API; its answer (a field error, a warning, a conflict) is shown as it came.
 */
@Controller
class JobsController {

  static final int PAGE_SIZE = 50;

  /** Cursors of earlier pages a list URL carries for "Previous" (about 90 characters each). */
  static final int TRAIL = 20;

  /** The first page's place in a trail (it has no cursor; API cursors never read so). */
  static final String FIRST = "first";

  private static final int PREVIEW_COUNT = 5;

  private final NodeApi api;

  JobsController(NodeApi api) {
    this.api = api;
  }

  /**
   * One page of the list, by the API's cursor: "Next" passes the page's {@code nextCursor}, and the
   * cursors of the pages before it travel in {@code trail} (at most {@value #TRAIL} of them, oldest
   * dropped first), so "Previous" is a link too; "First page" starts over.
   */
  @GetMapping("/console/jobs")
  String list(
      @RequestParam(defaultValue = "") String q,
      @RequestParam(defaultValue = "") String app,
      @RequestParam(defaultValue = "") String enabled,
      @RequestParam(defaultValue = "") String idPrefix,
      @RequestParam(defaultValue = "") String cursor,
      @RequestParam(defaultValue = "") String trail,
      Model model) {
    StringBuilder filters = new StringBuilder();
    if (!q.isBlank()) {
      filters.append("&q=").append(Paths.query(q.trim()));
    }
    if (!app.isBlank()) {
      filters.append("&app=").append(Paths.query(app.trim()));
    }
    if (!idPrefix.isBlank()) {
      filters.append("&idPrefix=").append(Paths.query(idPrefix.trim()));
    }
    if (enabled.equals("true") || enabled.equals("false")) {
      filters.append("&enabled=").append(enabled);
    }
    String path = "/api/v1/jobs?size=" + PAGE_SIZE + filters;
    if (!cursor.isBlank()) {
      path += "&cursor=" + Paths.query(cursor.trim());
    }
    ApiResponse jobs = api.get(path);
    List<String> before = trail.isBlank() ? List.of() : List.of(trail.split("\\.", -1));
    model.addAttribute("q", q).addAttribute("app", app).addAttribute("enabled", enabled);
    model.addAttribute("idPrefix", idPrefix);
    model.addAttribute("jobs", jobs.ok() ? jobs.list("items") : List.of());
    model.addAttribute("total", jobs.ok() ? jobs.body().get("total") : null);
    model.addAttribute("problem", jobs.ok() ? null : jobs.problem());
    model.addAttribute("firstPage", cursor.isBlank());
    Object next = jobs.ok() ? jobs.body().get("nextCursor") : null;
    if (next != null) {
      List<String> longer = new ArrayList<>(before);
      longer.add(cursor.isBlank() ? FIRST : cursor.trim());
      model.addAttribute("nextCursor", next.toString());
      model.addAttribute("nextTrail", String.join(".", tail(longer)));
    }
    if (!before.isEmpty()) {
      String previous = before.get(before.size() - 1);
      model.addAttribute("previousCursor", previous.equals(FIRST) ? "" : previous);
      model.addAttribute("previousTrail", String.join(".", before.subList(0, before.size() - 1)));
    } else if (!cursor.isBlank()) {
      model.addAttribute("previousCursor", ""); // the trail was cut: back to the first page
      model.addAttribute("previousTrail", "");
    }
    return "console/jobs";
  }

  /** The newest {@value #TRAIL} cursors of a trail. */
  private static List<String> tail(List<String> trail) {
    return trail.size() <= TRAIL ? trail : trail.subList(trail.size() - TRAIL, trail.size());
  }

  @GetMapping("/console/jobs/new")
  String newJob(Model model) {
    return form(model, JobForm.blank(), null, true);
  }

  @PostMapping("/console/jobs")
  String create(
      @ModelAttribute JobForm form,
      Model model,
      HttpServletResponse response,
      RedirectAttributes redirect) {
    Map<String, String> errors = new LinkedHashMap<>();
    Map<String, Object> body = form.toCreateRequest(errors);
    if (!errors.isEmpty()) {
      response.setStatus(400);
      return form(model, form, ApiProblem.local(errors), true);
    }
    ApiResponse created = api.post("/api/v1/jobs", body);
    if (!created.ok()) {
      response.setStatus(created.status());
      return form(model, form, created.problem(), true);
    }
    redirect.addFlashAttribute("notice", "Job " + created.body().get("id") + " created.");
    redirect.addFlashAttribute("warnings", created.list("warnings"));
    return "redirect:/console/jobs/" + created.body().get("id");
  }

  @GetMapping("/console/jobs/{id}")
  String show(@PathVariable String id, Model model, HttpServletResponse response) {
    ApiResponse job = api.get(Paths.job(id));
    if (!job.ok()) {
      response.setStatus(job.status());
      model.addAttribute("problem", job.problem());
      return "console/problem";
    }
    ApiResponse fires = api.get(Paths.job(id) + "/next-fires?count=" + PREVIEW_COUNT);
    ApiResponse triggers = api.get(Paths.job(id) + "/triggers?size=20");
    // The last 24 hours from the PostgreSQL history; without it the page simply leaves them out.
    ApiResponse stats = api.get(Paths.job(id) + "/stats");
    model.addAttribute("stats", stats.ok() ? stats.body() : null);
    // Measured now from the history; a job without an objective, or no history, shows none.
    ApiResponse lateness =
        job.body().get("latenessObjective") != null ? api.get(Paths.job(id) + "/lateness") : null;
    model.addAttribute("lateness", lateness != null && lateness.ok() ? lateness.body() : null);
    model.addAttribute("job", job.body());
    model.addAttribute("fires", fires.ok() ? fires.list("fires") : List.of());
    model.addAttribute("triggers", triggers.ok() ? triggers.list("items") : List.of());
    model.addAttribute("triggerSource", triggers.body().get("source"));
    // Absent (404) on a node with kairos.backfill.enabled=false: the panel then shows none.
    ApiResponse backfills = api.get(Paths.job(id) + "/backfills");
    model.addAttribute("backfills", backfills.ok() ? backfills.list("items") : List.of());
    return "console/job";
  }

  @GetMapping("/console/jobs/{id}/edit")
  String edit(@PathVariable String id, Model model, HttpServletResponse response) {
    ApiResponse job = api.get(Paths.job(id));
    if (!job.ok()) {
      response.setStatus(job.status());
      model.addAttribute("problem", job.problem());
      return "console/problem";
    }
    return form(model, JobForm.of(job.body()), null, false);
  }

  /** A new job's form filled from an existing one, for a new id. */
  @GetMapping("/console/jobs/{id}/copy")
  String copy(@PathVariable String id, Model model, HttpServletResponse response) {
    ApiResponse job = api.get(Paths.job(id));
    if (!job.ok()) {
      response.setStatus(job.status());
      model.addAttribute("problem", job.problem());
      return "console/problem";
    }
    return form(model, JobForm.of(job.body()).asCopy(), null, true);
  }

  @PostMapping("/console/jobs/{id}")
  String update(
      @PathVariable String id,
      @ModelAttribute JobForm form,
      Model model,
      HttpServletResponse response,
      RedirectAttributes redirect) {
    ApiResponse stored = api.get(Paths.job(id));
    if (!stored.ok()) {
      response.setStatus(stored.status());
      model.addAttribute("problem", stored.problem());
      return "console/problem";
    }
    Map<String, String> errors = new LinkedHashMap<>();
    Map<String, Object> body = form.toRequest(stored.body(), errors);
    JobForm shown = withId(form, id);
    if (!errors.isEmpty()) {
      response.setStatus(400);
      return form(model, shown, ApiProblem.local(errors), false);
    }
    // The version the edit started from: a change made meanwhile answers 409, not lost.
    long version = form.versionOr(((Number) stored.body().get("version")).longValue());
    ApiResponse updated = api.put(Paths.job(id), body, version);
    if (!updated.ok()) {
      response.setStatus(updated.status());
      return form(model, shown, updated.problem(), false);
    }
    redirect.addFlashAttribute("notice", "Job " + id + " saved.");
    redirect.addFlashAttribute("warnings", updated.list("warnings"));
    return "redirect:/console/jobs/" + id;
  }

  /** "Copy": the API's copy of the job, disabled, under the given id or a generated one. */
  @PostMapping("/console/jobs/{id}/copy")
  String copyJob(
      @PathVariable String id,
      @RequestParam(required = false) String newId,
      RedirectAttributes redirect) {
    Map<String, Object> body = new LinkedHashMap<>();
    if (newId != null && !newId.isBlank()) {
      body.put("id", newId.trim());
    }
    ApiResponse copied = api.post(Paths.job(id) + "/copy", body);
    if (!copied.ok()) {
      redirect.addFlashAttribute("problem", copied.problem());
      return "redirect:/console/jobs/" + id;
    }
    Object copyId = copied.body().get("id");
    redirect.addFlashAttribute(
        "notice", "Copied " + id + " to " + copyId + " (disabled: enable it to schedule it).");
    redirect.addFlashAttribute("warnings", copied.list("warnings"));
    // A job id is [A-Za-z0-9_.-]: nothing in it needs encoding in a path.
    return "redirect:/console/jobs/" + copyId;
  }

  @PostMapping("/console/jobs/{id}/enable")
  String enable(@PathVariable String id, RedirectAttributes redirect) {
    return action(id, "/enable", null, "enabled", redirect);
  }

  @PostMapping("/console/jobs/{id}/disable")
  String disable(@PathVariable String id, RedirectAttributes redirect) {
    return action(id, "/disable", null, "disabled", redirect);
  }

  @PostMapping("/console/jobs/{id}/trigger")
  String trigger(
      @PathVariable String id,
      @RequestParam(required = false) String params,
      @RequestParam(required = false) String slot,
      RedirectAttributes redirect) {
    Map<String, Object> body = new LinkedHashMap<>();
    if (params != null && !params.isEmpty()) {
      body.put("params", params);
    }
    if (slot != null && !slot.isBlank()) {
      try {
        body.put("slot", Integer.parseInt(slot.trim()));
      } catch (NumberFormatException e) {
        String message = "must be a whole number, was '" + slot.trim() + "'";
        redirect.addFlashAttribute(
            "problem",
            new ApiProblem(400, "validation-failed", "slot: " + message, Map.of("slot", message)));
        return "redirect:/console/jobs/" + id;
      }
    }
    ApiResponse answer = api.post(Paths.job(id) + "/trigger", body);
    if (!answer.ok()) {
      redirect.addFlashAttribute("problem", answer.problem());
      return "redirect:/console/jobs/" + id;
    }
    redirect.addFlashAttribute(
        "notice",
        "Triggered: "
            + answer.body().get("triggerId")
            + (body.containsKey("slot") ? " on slot " + body.get("slot") : "")
            + " (the leader claims it within its scan interval).");
    redirect.addFlashAttribute("triggered", answer.body().get("triggerId"));
    return "redirect:/console/jobs/" + id;
  }

  /** Starts a backfill of the job's fires in [from, to] (ISO-8601 instants), or finds it. */
  @PostMapping("/console/jobs/{id}/backfills")
  String backfill(
      @PathVariable String id,
      @RequestParam(defaultValue = "") String from,
      @RequestParam(defaultValue = "") String to,
      @RequestParam(defaultValue = "") String maxConcurrent,
      RedirectAttributes redirect) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("from", from.trim());
    body.put("to", to.trim());
    if (!maxConcurrent.isBlank()) {
      try {
        body.put("maxConcurrent", Integer.parseInt(maxConcurrent.trim()));
      } catch (NumberFormatException e) {
        String message = "must be a whole number, was '" + maxConcurrent.trim() + "'";
        redirect.addFlashAttribute(
            "problem",
            new ApiProblem(
                400,
                "validation-failed",
                "maxConcurrent: " + message,
                Map.of("maxConcurrent", message)));
        return "redirect:/console/jobs/" + id;
      }
    }
    ApiResponse answer = api.post(Paths.job(id) + "/backfills", body);
    if (!answer.ok()) {
      redirect.addFlashAttribute("problem", answer.problem());
      return "redirect:/console/jobs/" + id;
    }
    redirect.addFlashAttribute(
        "notice",
        (answer.status() == 201 ? "Backfill started: " : "This range was asked before: ")
            + answer.body().get("id")
            + " ("
            + answer.body().get("total")
            + " fires).");
    return "redirect:/console/jobs/" + id;
  }

  /** Cancels a running backfill of the job: no further fire is submitted. */
  @PostMapping("/console/jobs/{id}/backfills/cancel")
  String cancelBackfill(
      @PathVariable String id, @RequestParam String backfillId, RedirectAttributes redirect) {
    ApiResponse answer = api.post(Paths.backfill(backfillId) + "/cancel", null);
    if (answer.ok()) {
      redirect.addFlashAttribute(
          "notice", "Backfill " + backfillId + " is " + answer.body().get("state") + ".");
    } else {
      redirect.addFlashAttribute("problem", answer.problem());
    }
    return "redirect:/console/jobs/" + id;
  }

  @PostMapping("/console/jobs/{id}/delete")
  String delete(@PathVariable String id, RedirectAttributes redirect) {
    ApiResponse answer = api.delete(Paths.job(id));
    if (!answer.ok()) {
      redirect.addFlashAttribute("problem", answer.problem());
      return "redirect:/console/jobs/" + id;
    }
    redirect.addFlashAttribute("notice", "Job " + id + " deleted.");
    return "redirect:/console/jobs";
  }

  /**
   * The next fires of the schedule being typed (htmx, on change): the API's preview of a schedule
   * not saved yet, read in the chosen cron dialect, or its field errors.
   */
  @PostMapping("/console/jobs/preview")
  String preview(
      @RequestParam(defaultValue = "") String scheduleType,
      @RequestParam(defaultValue = "") String schedule,
      @RequestParam(defaultValue = "") String zone,
      @RequestParam(defaultValue = "") String cronDialect,
      @RequestParam(defaultValue = "") String calendars,
      Model model) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("scheduleType", scheduleType.isBlank() ? "CRON" : scheduleType.trim());
    body.put("schedule", schedule.trim());
    body.put("zone", zone.isBlank() ? "UTC" : zone.trim());
    if (!cronDialect.isBlank()) {
      body.put("cronDialect", cronDialect.trim());
    }
    body.put("count", PREVIEW_COUNT);
    List<String> names = JobForm.names(calendars);
    if (!names.isEmpty()) {
      body.put("calendars", names);
    }
    ApiResponse answer = api.post("/api/v1/schedules/preview", body);
    model.addAttribute("preview", answer.ok() ? answer.body() : null);
    model.addAttribute("problem", answer.ok() ? null : answer.problem());
    return "console/fragments :: preview";
  }

  private String action(
      String id, String suffix, Object body, String done, RedirectAttributes redirect) {
    ApiResponse answer = api.post(Paths.job(id) + suffix, body);
    if (answer.ok()) {
      redirect.addFlashAttribute("notice", "Job " + id + " " + done + ".");
    } else {
      redirect.addFlashAttribute("problem", answer.problem());
    }
    return "redirect:/console/jobs/" + id;
  }

  private String form(Model model, JobForm form, ApiProblem problem, boolean creating) {
    model.addAttribute("form", form);
    model.addAttribute("creating", creating);
    model.addAttribute("problem", problem);
    model.addAttribute("errors", problem == null ? Map.of() : problem.fields());
    model.addAttribute("scheduleTypes", ScheduleType.values());
    model.addAttribute("cronDialects", CronDialect.values());
    model.addAttribute("routings", RoutingStrategy.values());
    model.addAttribute("blocks", BlockStrategy.values());
    model.addAttribute("misfires", MisfireStrategy.values());
    return "console/job-form";
  }

  private static JobForm withId(JobForm f, String id) {
    return new JobForm(
        id,
        f.app(),
        f.handler(),
        f.scheduleType(),
        f.schedule(),
        f.zone(),
        f.cronDialect(),
        f.params(),
        f.routing(),
        f.block(),
        f.timeoutMs(),
        f.retryCount(),
        f.misfire(),
        f.misfireThresholdMs(),
        f.enabled(),
        f.childJobIds(),
        f.description(),
        f.owner(),
        f.alarmEmails(),
        f.alarmWebhooks(),
        f.calendars(),
        f.objectivePercentile(),
        f.objectiveThresholdMs(),
        f.objectiveWindowMs(),
        f.version());
  }
}
