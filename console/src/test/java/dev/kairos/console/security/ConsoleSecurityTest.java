package dev.kairos.console.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureMockMvc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.oauth2.server.resource.introspection.BadOpaqueTokenException;
import org.springframework.security.oauth2.server.resource.introspection.OAuth2IntrospectionAuthenticatedPrincipal;
import org.springframework.security.oauth2.server.resource.introspection.OpaqueTokenIntrospector;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

/**
 * The console's security chain on its own (no node): sign-in with a token, session fixation, the
 * idle timeout, CSRF, and the VIEWER's refused writes. Pages that read the node's API are covered
 * by the browser test against a real node; everything here is decided before a controller runs.
 */
@SpringBootTest(
    classes = ConsoleSecurityTest.TestApp.class,
    properties = {"kairos.console.idle-timeout=7m", "kairos.console.sample-interval=1h"})
@AutoConfigureMockMvc
class ConsoleSecurityTest {

  static final String ADMIN = "admin-token";
  static final String VIEWER = "viewer-token";
  private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

  /** Two tokens, as the node's introspector would answer for them. */
  @SpringBootApplication
  static class TestApp {
    @Bean
    OpaqueTokenIntrospector tokens() {
      Map<String, String> roles = Map.of(ADMIN, "ADMIN", VIEWER, "VIEWER");
      return token -> {
        String role = roles.get(token);
        if (role == null) {
          throw new BadOpaqueTokenException("unknown");
        }
        return new OAuth2IntrospectionAuthenticatedPrincipal(
            role.toLowerCase() + "-name",
            Map.of("role", role),
            AuthorityUtils.createAuthorityList("ROLE_" + role));
      };
    }
  }

  @Autowired MockMvc mvc;

  @Test
  void aPageWithoutSignInRedirectsToTheSignInPage() throws Exception {
    MvcResult result = mvc.perform(get("/console/jobs")).andReturn();
    assertThat(result.getResponse().getStatus()).isEqualTo(302);
    assertThat(result.getResponse().getRedirectedUrl()).endsWith("/console/sign-in");
  }

  @Test
  void anHtmxRequestWithoutSessionIsToldToReloadTheSignInPage() throws Exception {
    MvcResult result =
        mvc.perform(get("/console/dashboard/numbers").header("HX-Request", "true")).andReturn();
    assertThat(result.getResponse().getStatus()).isEqualTo(401);
    assertThat(result.getResponse().getHeader("HX-Redirect")).isEqualTo("/console/sign-in?expired");
  }

  /** Browsers ask every page's origin for /favicon.ico; it was a 401 from the API's chain. */
  @Test
  void theFaviconIsServedWithoutSignIn() throws Exception {
    MvcResult icon = mvc.perform(get("/favicon.ico")).andReturn();
    assertThat(icon.getResponse().getStatus()).isEqualTo(200);
    byte[] body = icon.getResponse().getContentAsByteArray();
    assertThat(body).as("an ICO file: reserved 0, type 1").startsWith(0, 0, 1, 0);
    String page =
        mvc.perform(get("/console/sign-in")).andReturn().getResponse().getContentAsString();
    assertThat(page).contains("<link rel=\"icon\" href=\"/favicon.ico\">");
  }

  @Test
  void theSignInPageLabelsItsFieldAndForbidsInlineScript() throws Exception {
    MvcResult page = mvc.perform(get("/console/sign-in")).andReturn();
    String html = page.getResponse().getContentAsString();
    assertThat(html).contains("<label for=\"token\">").contains("id=\"token\"");
    assertThat(page.getResponse().getHeader("Content-Security-Policy"))
        .contains("script-src 'self'")
        .contains("frame-ancestors 'none'");
  }

  @Test
  void aWrongTokenIsRefusedAndNeverEchoed() throws Exception {
    MockHttpSession session = new MockHttpSession();
    MvcResult result =
        mvc.perform(
                post("/console/sign-in")
                    .session(session)
                    .param("token", "wrong-token")
                    .param("_csrf", csrf(session)))
            .andReturn();
    assertThat(result.getResponse().getRedirectedUrl()).endsWith("/console/sign-in?error");
    MvcResult page = mvc.perform(get("/console/sign-in?error").session(session)).andReturn();
    assertThat(page.getResponse().getContentAsString()).doesNotContain("wrong-token");
  }

  @Test
  void signInChangesTheSessionIdAndSetsTheIdleTimeout() throws Exception {
    MockHttpSession before = new MockHttpSession();
    String csrf = csrf(before);
    String idBefore = before.getId();
    MvcResult result =
        mvc.perform(
                post("/console/sign-in").session(before).param("token", ADMIN).param("_csrf", csrf))
            .andReturn();
    assertThat(result.getResponse().getRedirectedUrl()).isEqualTo("/console");
    MockHttpSession after = (MockHttpSession) result.getRequest().getSession();
    assertThat(after.getId()).as("session fixation protection").isNotEqualTo(idBefore);
    assertThat(after.getMaxInactiveInterval()).isEqualTo(7 * 60);
  }

  @Test
  void aViewerPostIsRefusedWith403EvenWithAValidCsrfToken() throws Exception {
    MockHttpSession session = signIn(VIEWER);
    for (String path :
        List.of(
            "/console/jobs",
            "/console/jobs/a/disable",
            "/console/jobs/a/delete",
            "/console/job-batches",
            "/console/trigger/cancel",
            "/console/cluster/pause")) {
      MvcResult result =
          mvc.perform(post(path).session(session).param("_csrf", csrf(session))).andReturn();
      assertThat(result.getResponse().getStatus()).as(path).isEqualTo(403);
      assertThat(result.getResponse().getContentAsString()).contains("may look but not change");
    }
  }

  /** Token records and the audit log (job params whole) are for admins, their pages too. */
  @Test
  void aViewerCannotOpenTheTokensOrTheAuditPage() throws Exception {
    MockHttpSession session = signIn(VIEWER);
    for (String path : List.of("/console/tokens", "/console/audit", "/console/audit?jobId=a")) {
      MvcResult result = mvc.perform(get(path).session(session)).andReturn();
      assertThat(result.getResponse().getStatus()).as(path).isEqualTo(403);
    }
  }

  @Test
  void anAdminPostWithoutTheCsrfTokenIsRefused() throws Exception {
    MockHttpSession session = signIn(ADMIN);
    MvcResult result = mvc.perform(post("/console/cluster/pause").session(session)).andReturn();
    assertThat(result.getResponse().getStatus()).isEqualTo(403);
    assertThat(result.getResponse().getContentAsString()).contains("security token");
  }

  @Test
  void signOutEndsTheSession() throws Exception {
    MockHttpSession session = signIn(ADMIN);
    MvcResult out =
        mvc.perform(post("/console/sign-out").session(session).param("_csrf", csrf(session)))
            .andReturn();
    assertThat(out.getResponse().getRedirectedUrl()).endsWith("/console/sign-in?signedOut");
    assertThat(session.isInvalid()).isTrue();
  }

  private MockHttpSession signIn(String token) throws Exception {
    MockHttpSession session = new MockHttpSession();
    MvcResult result =
        mvc.perform(
                post("/console/sign-in")
                    .session(session)
                    .param("token", token)
                    .param("_csrf", csrf(session)))
            .andReturn();
    assertThat(result.getResponse().getRedirectedUrl()).isEqualTo("/console");
    return (MockHttpSession) result.getRequest().getSession();
  }

  /** The CSRF token as the sign-in page renders it for this session. */
  private String csrf(MockHttpSession session) throws Exception {
    String html =
        mvc.perform(get("/console/sign-in").session(session))
            .andReturn()
            .getResponse()
            .getContentAsString();
    Matcher m = CSRF.matcher(html);
    assertThat(m.find()).as("a CSRF field in " + html).isTrue();
    return m.group(1);
  }
}
