package dev.kairos.console.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.console.api.ApiProblem;
import dev.kairos.console.api.ApiResponse;
import dev.kairos.console.api.NodeApi;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.Map;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * Export and import of jobs, through the API's {@code GET /api/v1/job-export} and {@code POST
 * /api/v1/job-import}: the exported file is exactly the document the import accepts. An import is
 * always previewed first (a dry run); the previewed document waits in the session until the admin
 * applies it, so what is applied is what was previewed, without a second upload.
 */
@Controller
class JobTransferController {

  /** The session attribute holding the document of the last dry run, until it is applied. */
  static final String PENDING = "kairos.console.pendingImport";

  private final NodeApi api;
  private final ObjectMapper json;

  JobTransferController(NodeApi api, ObjectMapper json) {
    this.api = api;
    this.json = json;
  }

  @GetMapping("/console/job-transfer")
  String page(HttpSession session, Model model) {
    model.addAttribute("pending", session.getAttribute(PENDING) != null);
    return "console/jobs-transfer";
  }

  /**
   * The export as a file download; an empty app exports every job. The API's document is copied to
   * the browser as it arrives (the node streams it), so neither side holds the whole export.
   */
  @GetMapping("/console/job-export")
  String export(
      @RequestParam(defaultValue = "") String app,
      HttpServletResponse response,
      RedirectAttributes redirect) {
    String filter = app.isBlank() ? "" : "?app=" + Paths.query(app.trim());
    String name = "kairos-jobs" + (app.isBlank() ? "" : "-" + app.trim()) + ".json";
    ApiResponse answer =
        api.download(
            "/api/v1/job-export" + filter,
            body -> {
              response.setContentType(MediaType.APPLICATION_JSON_VALUE);
              response.setHeader(
                  HttpHeaders.CONTENT_DISPOSITION,
                  ContentDisposition.attachment().filename(name).build().toString());
              body.transferTo(response.getOutputStream());
            });
    if (!answer.ok()) {
      redirect.addFlashAttribute("problem", answer.problem());
      return "redirect:/console/job-transfer";
    }
    return null; // written above
  }

  /** Uploads a file and previews it: the API's dry run, nothing changed yet. */
  @PostMapping("/console/job-import")
  String preview(
      @RequestParam(name = "file", required = false) MultipartFile file,
      HttpSession session,
      RedirectAttributes redirect) {
    session.removeAttribute(PENDING);
    if (file == null || file.isEmpty()) {
      redirect.addFlashAttribute("problem", fileProblem("choose an export file (.json)"));
      return "redirect:/console/job-transfer";
    }
    Object document;
    try {
      document = json.readValue(file.getBytes(), Object.class);
    } catch (IOException e) {
      redirect.addFlashAttribute(
          "problem", fileProblem("is not JSON: " + firstLine(e.getMessage())));
      return "redirect:/console/job-transfer";
    }
    ApiResponse answer = api.post("/api/v1/job-import?dryRun=true", document);
    if (!answer.ok()) {
      redirect.addFlashAttribute("problem", answer.problem());
      return "redirect:/console/job-transfer";
    }
    session.setAttribute(PENDING, document);
    redirect.addFlashAttribute("result", answer.body());
    redirect.addFlashAttribute(
        "notice", "Preview of " + file.getOriginalFilename() + ": nothing changed yet.");
    return "redirect:/console/job-transfer";
  }

  /** Applies the document previewed last in this session. */
  @PostMapping("/console/job-import/apply")
  String apply(HttpSession session, RedirectAttributes redirect) {
    Object document = session.getAttribute(PENDING);
    if (document == null) {
      redirect.addFlashAttribute("notice", "Nothing previewed to apply: upload a file first.");
      return "redirect:/console/job-transfer";
    }
    ApiResponse answer = api.post("/api/v1/job-import", document);
    if (!answer.ok()) {
      redirect.addFlashAttribute("problem", answer.problem());
      return "redirect:/console/job-transfer";
    }
    session.removeAttribute(PENDING);
    Map<String, Object> r = answer.body();
    redirect.addFlashAttribute("result", r);
    redirect.addFlashAttribute(
        "notice",
        "Imported: "
            + r.get("created")
            + " created, "
            + r.get("updated")
            + " updated, "
            + r.get("unchanged")
            + " unchanged, "
            + r.get("conflicts")
            + " conflict(s).");
    return "redirect:/console/job-transfer";
  }

  private static ApiProblem fileProblem(String message) {
    return new ApiProblem(400, "invalid-field", "file: " + message, Map.of("file", message));
  }

  private static String firstLine(String text) {
    if (text == null) {
      return "";
    }
    int end = text.indexOf('\n');
    return end < 0 ? text : text.substring(0, end);
  }
}
