package dev.kairos.node;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The scheduler node: one process of a Kairos cluster. */
@SpringBootApplication
public class KairosNodeApplication {

  public static void main(String[] args) {
    SpringApplication.run(KairosNodeApplication.class, args);
  }
}
