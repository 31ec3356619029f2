package dev.kairos.console.web;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

/** The sign-in page; Spring Security's form login handles its POST. */
@Controller
class SignInController {

  @GetMapping("/console/sign-in")
  String signIn() {
    return "console/sign-in";
  }
}
