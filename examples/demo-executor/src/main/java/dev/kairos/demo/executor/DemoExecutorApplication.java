package dev.kairos.demo.executor;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A user's service that runs Kairos jobs. */
@SpringBootApplication
public class DemoExecutorApplication {

  public static void main(String[] args) {
    SpringApplication.run(DemoExecutorApplication.class, args);
  }
}
