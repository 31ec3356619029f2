package dev.kairos.node.api.problem;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.catalina.Container;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Puts {@link ProblemErrorReportValve} in place of Tomcat's HTML error report on the host. Runs
 * after Spring Boot's own Tomcat customizer (which adds a plain {@link ErrorReportValve}) and
 * removes it, so the problem report is the only one.
 */
@Configuration(proxyBeanMethods = false)
class ProblemErrorConfiguration {

  @Bean
  WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorReportValve(
      ObjectMapper json) {
    return new WebServerFactoryCustomizer<>() {
      @Override
      public void customize(TomcatServletWebServerFactory factory) {
        factory.addContextCustomizers(
            context -> {
              Container parent = context.getParent();
              if (parent instanceof StandardHost host) {
                for (Valve valve : host.getPipeline().getValves()) {
                  if (valve instanceof ErrorReportValve) {
                    host.getPipeline().removeValve(valve);
                  }
                }
                // StandardHost adds a valve of this class on start unless one is present.
                host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
                host.getPipeline().addValve(new ProblemErrorReportValve(json));
              }
            });
      }
    };
  }
}
