package dev.kairos.console.web;

import dev.kairos.console.api.ApiResponse;
import dev.kairos.console.api.NodeApi;
import dev.kairos.core.model.TriggerState;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The trigger search across jobs: the form's filters go to {@code GET /api/v1/trigger-search} as
 * they are (the API checks them and names a bad one, shown next to the form), except the times: a
 * {@code datetime-local} input has no zone, and the page says it is UTC.
 */
@Controller
class TriggerSearchController {

  static final int PAGE_SIZE = 50;

  private final NodeApi api;

  TriggerSearchController(NodeApi api) {
    this.api = api;
  }

  @GetMapping("/console/triggers")
  String search(
      @RequestParam(defaultValue = "") String app,
      @RequestParam(defaultValue = "") String jobId,
      @RequestParam(required = false) List<String> state,
      @RequestParam(defaultValue = "") String from,
      @RequestParam(defaultValue = "") String to,
      @RequestParam(defaultValue = "") String text,
      @RequestParam(defaultValue = "0") String page,
      Model model) {
    List<String> states = state == null ? List.of() : state;
    int p = page.matches("\\d{1,6}") ? Integer.parseInt(page) : 0;
    List<String> filters = new ArrayList<>();
    add(filters, "app", app);
    add(filters, "jobId", jobId);
    states.forEach(s -> add(filters, "state", s));
    add(filters, "from", utc(from));
    add(filters, "to", utc(to));
    add(filters, "text", text);
    String query = String.join("&", filters);
    ApiResponse found =
        api.get(
            "/api/v1/trigger-search?size="
                + PAGE_SIZE
                + "&page="
                + p
                + (query.isEmpty() ? "" : "&" + query));
    long total = found.body().get("total") instanceof Number n ? n.longValue() : 0;
    model.addAttribute("app", app).addAttribute("jobId", jobId).addAttribute("text", text);
    model.addAttribute("from", from).addAttribute("to", to);
    model.addAttribute("selected", states);
    model.addAttribute("states", TriggerState.values());
    model.addAttribute("triggers", found.ok() ? found.list("items") : List.of());
    model.addAttribute("total", total);
    model.addAttribute("page", p);
    model.addAttribute("previous", p > 0 ? pageQuery(query, p - 1) : null);
    model.addAttribute("next", (long) (p + 1) * PAGE_SIZE < total ? pageQuery(query, p + 1) : null);
    model.addAttribute("problem", found.ok() ? null : found.problem());
    return "console/triggers";
  }

  private static String pageQuery(String query, int page) {
    return "?" + (query.isEmpty() ? "" : query + "&") + "page=" + page;
  }

  private static void add(List<String> query, String name, String value) {
    if (value != null && !value.isBlank()) {
      query.add(name + "=" + Paths.query(value.trim()));
    }
  }

  /**
   * A {@code datetime-local} value ({@code 2026-11-26T10:00}, seconds optional) read as UTC; any
   * other text goes to the API unchanged, which names it if it is not a time.
   */
  static String utc(String value) {
    String v = value == null ? "" : value.trim();
    if (v.matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}")) {
      return v + ":00Z";
    }
    if (v.matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?")) {
      return v + "Z";
    }
    return v;
  }
}
