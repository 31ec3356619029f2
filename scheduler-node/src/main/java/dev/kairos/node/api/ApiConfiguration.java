package dev.kairos.node.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.coordinator.cluster.ZkLayout;
import dev.kairos.core.calendar.CalendarStore;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.AppSettingsStore;
import dev.kairos.core.store.JobIndex;
import dev.kairos.core.store.JobIndexRepair;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.node.api.audit.AuditTrail;
import dev.kairos.node.api.batch.JobImporter;
import dev.kairos.node.api.calendar.CalendarReferences;
import dev.kairos.node.api.cluster.ClusterReader;
import dev.kairos.node.api.executor.LiveSlots;
import dev.kairos.node.api.history.HistoryAccess;
import dev.kairos.node.api.job.ExecutorWarnings;
import dev.kairos.node.api.job.JobCatalog;
import dev.kairos.node.api.trigger.TriggerLogReader;
import dev.kairos.node.api.trigger.TriggerLookup;
import dev.kairos.node.api.web.RequestBodyLimitFilter;
import dev.kairos.node.api.web.StrictJson;
import dev.kairos.node.api.web.StrictJsonMapper;
import dev.kairos.node.system.redis.RedisConnectionProperties;
import dev.kairos.node.system.zookeeper.ZookeeperProperties;
import dev.kairos.sync.history.TriggerHistoryQueries;
import dev.kairos.sync.history.read.HistoryReader;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.json.MappingJackson2HttpMessageConverter;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Wiring of the admin API that is not a controller: its properties, the read models behind the
 * controllers, the request body cap on {@code /api/*}, and strict JSON reading of request bodies.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ApiProperties.class)
class ApiConfiguration {

  @Bean
  JobIndex apiJobIndex(
      KairosRedis redis, RedisKeys keys, RedisConnectionProperties redisProperties) {
    return new JobIndex(redis, keys, redisProperties.getTimeout());
  }

  @Bean
  JobCatalog apiJobCatalog(
      JobIndex index, KairosRedis redis, RedisConnectionProperties redisProperties) {
    return new JobCatalog(index, redis, redisProperties.getTimeout());
  }

  /**
   * Gives shards written by an older version their job indexes, in the background from start (lists
   * of those shards are incomplete until it is done; docs/operations.md).
   */
  @Bean(initMethod = "start", destroyMethod = "close")
  JobIndexRepair apiJobIndexRepair(KairosRedis redis, RedisKeys keys, ApiProperties properties) {
    return new JobIndexRepair(redis, keys, properties.isVerifyJobIndexAtStart());
  }

  @Bean
  AppSettingsStore apiAppSettingsStore(KairosRedis redis, ClusterClock clock) {
    return new AppSettingsStore(redis, clock);
  }

  @Bean
  CalendarStore apiCalendarStore(KairosRedis redis, ClusterClock clock) {
    return new CalendarStore(redis, clock);
  }

  @Bean
  CalendarReferences apiCalendarReferences(CalendarStore store) {
    return new CalendarReferences(store);
  }

  @Bean
  LiveSlots apiLiveSlots(KairosRedis redis) {
    return new LiveSlots(redis);
  }

  @Bean
  ExecutorWarnings apiExecutorWarnings(LiveSlots slots) {
    return new ExecutorWarnings(slots);
  }

  @Bean
  JobImporter apiJobImporter(
      JobStore store, ExecutorWarnings warnings, AuditTrail audit, CalendarReferences calendars) {
    return new JobImporter(store, warnings, audit, calendars);
  }

  /** History from PostgreSQL where persistence-sync is wired, else Redis only. */
  @Bean
  TriggerLookup apiTriggerLookup(
      KairosRedis redis,
      RedisKeys keys,
      ObjectProvider<TriggerHistoryQueries> history,
      RedisConnectionProperties redisProperties) {
    return new TriggerLookup(redis, keys, history.getIfAvailable(), redisProperties.getTimeout());
  }

  /** The JPA history read side (persistence-sync) where a DataSource is wired; else 503s. */
  @Bean
  HistoryAccess apiHistoryAccess(ObjectProvider<HistoryReader> reader) {
    return new HistoryAccess(reader);
  }

  @Bean
  TriggerLogReader apiTriggerLogReader(
      KairosRedis redis,
      RedisKeys keys,
      ObjectProvider<TriggerHistoryQueries> history,
      TriggerLookup lookup) {
    return new TriggerLogReader(redis, keys, history.getIfAvailable(), lookup);
  }

  @Bean
  ClusterReader apiClusterReader(
      CuratorFramework curator,
      ZookeeperProperties zookeeper,
      KairosRedis redis,
      RedisKeys keys,
      RedisConnectionProperties redisProperties) {
    return new ClusterReader(
        curator, new ZkLayout(zookeeper.getRootPath()), redis, keys, redisProperties.getTimeout());
  }

  /** Runs after Spring Security, so an unauthenticated caller's body is never read. */
  @Bean
  FilterRegistrationBean<RequestBodyLimitFilter> apiRequestBodyLimit(
      ApiProperties properties, ObjectMapper json) {
    FilterRegistrationBean<RequestBodyLimitFilter> registration =
        new FilterRegistrationBean<>(
            new RequestBodyLimitFilter(properties.getMaxBodySize().toBytes(), json));
    registration.addUrlPatterns("/api/*");
    registration.setName("kairosApiRequestBodyLimit");
    return registration;
  }

  @Bean
  WebMvcConfigurer apiStrictJson(ObjectMapper json) {
    ObjectMapper strict = StrictJsonMapper.from(json);
    return new WebMvcConfigurer() {
      @Override
      public void extendMessageConverters(List<HttpMessageConverter<?>> converters) {
        for (HttpMessageConverter<?> converter : converters) {
          if (converter instanceof MappingJackson2HttpMessageConverter jackson) {
            jackson.registerObjectMappersForType(
                StrictJson.class,
                mappers -> {
                  mappers.put(MediaType.APPLICATION_JSON, strict);
                  mappers.put(new MediaType("application", "*+json"), strict);
                });
          }
        }
      }
    };
  }
}
