package dev.kairos.console.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * The sign-in page: a user's name and password, an API token, and a link per OpenID Connect
 * provider registered; Spring Security's form and OAuth2 login handle what follows.
 */
@Controller
class SignInController {

  private final ObjectProvider<ClientRegistrationRepository> providers;

  SignInController(ObjectProvider<ClientRegistrationRepository> providers) {
    this.providers = providers;
  }

  @GetMapping("/console/sign-in")
  String signIn(Model model) {
    List<Map<String, String>> links = new ArrayList<>();
    if (providers.getIfAvailable() instanceof Iterable<?> registrations) {
      for (Object r : registrations) {
        ClientRegistration registration = (ClientRegistration) r;
        links.add(
            Map.of(
                "id", registration.getRegistrationId(),
                "name", registration.getClientName()));
      }
    }
    model.addAttribute("oidcProviders", links);
    return "console/sign-in";
  }
}
