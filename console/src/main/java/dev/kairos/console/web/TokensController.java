package dev.kairos.console.web;

import dev.kairos.console.api.ApiResponse;
import dev.kairos.console.api.NodeApi;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashMap;
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
 * API tokens created at runtime (ADMIN only): the list with owners, expiries and last use, a form
 * that creates one and shows its token once, and revocation. Everything goes through the node's
 * {@code /api/v1/tokens}, so its rules and audit lines apply.
 */
@Controller
class TokensController {

  static final String TOKENS = "/console/tokens";

  private final NodeApi api;

  TokensController(NodeApi api) {
    this.api = api;
  }

  @GetMapping(TOKENS)
  String tokens(Model model) {
    ApiResponse tokens = api.get("/api/v1/tokens");
    model.addAttribute("tokens", tokens.ok() ? tokens.list("items") : List.of());
    if (!tokens.ok()) {
      model.addAttribute("problem", tokens.problem());
    }
    return "console/tokens";
  }

  @PostMapping(TOKENS)
  String create(
      @RequestParam(defaultValue = "") String name,
      @RequestParam(defaultValue = "") String owner,
      @RequestParam(defaultValue = "") String role,
      @RequestParam(defaultValue = "") String apps,
      @RequestParam(defaultValue = "") String expiresOn,
      RedirectAttributes redirect) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", name.strip());
    body.put("owner", owner.strip());
    body.put("role", role.isBlank() ? null : role);
    body.put("apps", Arrays.stream(apps.split("[,\\s]+")).filter(a -> !a.isBlank()).toList());
    if (!expiresOn.isBlank()) {
      body.put("expiresAt", endOfDayUtc(expiresOn));
    }
    ApiResponse answer = api.post("/api/v1/tokens", body);
    if (answer.ok()) {
      // Shown once, on the page the redirect lands on; the flash attribute lives in the session
      // for that one request only.
      redirect.addFlashAttribute("issuedToken", answer.body().get("token"));
      redirect.addFlashAttribute("notice", "Token " + name.strip() + " created.");
    } else {
      redirect.addFlashAttribute("problem", answer.problem());
    }
    return "redirect:" + TOKENS;
  }

  @PostMapping(TOKENS + "/{id}/revoke")
  String revoke(@PathVariable String id, RedirectAttributes redirect) {
    ApiResponse answer = api.delete(Paths.token(id));
    if (answer.ok()) {
      redirect.addFlashAttribute("notice", "Token " + id + " revoked.");
    } else {
      redirect.addFlashAttribute("problem", answer.problem());
    }
    return "redirect:" + TOKENS;
  }

  /** A date picked in the form means "through that day", in UTC; anything else goes as typed. */
  private static String endOfDayUtc(String date) {
    try {
      return LocalDate.parse(date.strip())
          .plusDays(1)
          .atStartOfDay()
          .toInstant(ZoneOffset.UTC)
          .toString();
    } catch (DateTimeParseException e) {
      return date.strip(); // the API names the field and why
    }
  }
}
