package dev.kairos.node.api.user;

import dev.kairos.console.security.PasswordSignIn;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.security.Role;
import dev.kairos.security.token.RuntimeTokenStore;
import dev.kairos.security.user.LocalUserStore;
import dev.kairos.security.user.UserSessions;
import java.util.List;
import java.util.Optional;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The local user store, and the console's password sign-in on top of it. */
@Configuration(proxyBeanMethods = false)
class UserConfiguration {

  @Bean
  LocalUserStore localUserStore(KairosRedis redis, ClusterClock clock) {
    return new LocalUserStore(redis, clock);
  }

  @Bean
  UserSessions userSessions(LocalUserStore users, RuntimeTokenStore tokens, ClusterClock clock) {
    return new UserSessions(users, tokens, clock);
  }

  @Bean
  PasswordSignIn consolePasswordSignIn(UserSessions sessions) {
    return new PasswordSignIn() {
      @Override
      public Optional<String> sessionToken(String username, String password) {
        return sessions.signIn(username, password);
      }

      @Override
      public String sessionTokenFor(String name, String role, List<String> apps) {
        return sessions.issue(name, Role.valueOf(role), apps);
      }

      @Override
      public void signOut(String sessionToken, String username) {
        sessions.signOut(sessionToken, username);
      }
    };
  }
}
