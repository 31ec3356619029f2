package dev.kairos.console.web;

import dev.kairos.console.api.ApiResponse;
import dev.kairos.console.api.NodeApi;
import dev.kairos.console.security.ConsoleSecurityConfiguration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The audit trail (ADMIN only): every write through the API, newest first, filtered by app, job and
 * actor, each entry with the fields it changed. Read from {@code GET /api/v1/audit}, which checks
 * the filters and names a bad one (shown next to the form); a page at a time by its cursor.
 */
@Controller
class AuditLogController {

  static final int PAGE_SIZE = 50;

  private final NodeApi api;

  AuditLogController(NodeApi api) {
    this.api = api;
  }

  @GetMapping(ConsoleSecurityConfiguration.AUDIT)
  String audit(
      @RequestParam(defaultValue = "") String app,
      @RequestParam(defaultValue = "") String jobId,
      @RequestParam(defaultValue = "") String actor,
      @RequestParam(defaultValue = "") String cursor,
      Model model) {
    List<String> filters = new ArrayList<>();
    add(filters, "app", app);
    add(filters, "jobId", jobId);
    add(filters, "actor", actor);
    String query = String.join("&", filters);
    ApiResponse found =
        api.get(
            "/api/v1/audit?limit="
                + PAGE_SIZE
                + (query.isEmpty() ? "" : "&" + query)
                + (cursor.isBlank() ? "" : "&cursor=" + Paths.query(cursor.trim())));
    Object next = found.ok() ? found.body().get("nextCursor") : null;
    model.addAttribute("app", app).addAttribute("jobId", jobId).addAttribute("actor", actor);
    model.addAttribute("entries", found.ok() ? found.list("items") : List.of());
    model.addAttribute(
        "next",
        next == null
            ? null
            : "?"
                + (query.isEmpty() ? "" : query + "&")
                + "cursor="
                + Paths.query(next.toString()));
    model.addAttribute("first", cursor.isBlank() ? null : query.isEmpty() ? "" : "?" + query);
    model.addAttribute("problem", found.ok() ? null : found.problem());
    return "console/audit";
  }

  private static void add(List<String> query, String name, String value) {
    if (value != null && !value.isBlank()) {
      query.add(name + "=" + Paths.query(value.trim()));
    }
  }
}
