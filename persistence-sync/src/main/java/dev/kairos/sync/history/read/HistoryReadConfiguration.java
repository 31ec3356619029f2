package dev.kairos.sync.history.read;

import java.util.Map;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.data.jpa.repository.config.EnableJpaRepositories;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.orm.jpa.LocalContainerEntityManagerFactoryBean;
import org.springframework.orm.jpa.vendor.HibernateJpaVendorAdapter;

/**
 * The history read side on Spring Data JPA: its own persistence unit over the application's
 * DataSource, its own transaction manager, and the read-only repositories of this package.
 *
 * <p>Boot's JPA auto-configuration stays excluded in the node because Hibernate reads JDBC metadata
 * at boot, which would stop a node whose PostgreSQL is down. This unit is built so that it never
 * connects at boot ({@code hibernate.boot.allow_jdbc_metadata_access=false} with the database
 * named, no schema generation): the first query opens the first connection, and a PostgreSQL that
 * is down fails that query, not the node. The schema stays Flyway's (persistence-sync), and every
 * write stays the guarded JDBC upserts; HQL updates of these {@code @Immutable} entities throw.
 * Ordered before Boot's Hibernate auto-configuration, which backs off where it is not excluded.
 */
@AutoConfiguration(
    after = DataSourceAutoConfiguration.class,
    beforeName = "org.springframework.boot.autoconfigure.orm.jpa.HibernateJpaAutoConfiguration")
@ConditionalOnProperty(
    prefix = "kairos.history",
    name = "enabled",
    havingValue = "true",
    matchIfMissing = true)
@ConditionalOnBean(DataSource.class)
@EnableConfigurationProperties(HistoryProperties.class)
@EnableJpaRepositories(
    basePackageClasses = HistoryReadConfiguration.class,
    entityManagerFactoryRef = HistoryReadConfiguration.ENTITY_MANAGER_FACTORY,
    transactionManagerRef = HistoryReadConfiguration.TRANSACTION_MANAGER)
public class HistoryReadConfiguration {

  /** The persistence unit's name; {@code @PersistenceContext} in this package refers to it. */
  static final String UNIT = "kairos-history";

  static final String ENTITY_MANAGER_FACTORY = "kairosHistoryEntityManagerFactory";
  static final String TRANSACTION_MANAGER = "kairosHistoryTransactionManager";

  @Bean(ENTITY_MANAGER_FACTORY)
  LocalContainerEntityManagerFactoryBean kairosHistoryEntityManagerFactory(DataSource dataSource) {
    LocalContainerEntityManagerFactoryBean factory = new LocalContainerEntityManagerFactoryBean();
    factory.setPersistenceUnitName(UNIT);
    factory.setDataSource(dataSource);
    factory.setPackagesToScan(HistoryReadConfiguration.class.getPackageName());
    factory.setJpaVendorAdapter(new HibernateJpaVendorAdapter());
    factory.setJpaPropertyMap(hibernateProperties());
    return factory;
  }

  /**
   * What makes the unit boot without a database and refuse writes; public for tests. The database
   * is named (PostgreSQL 12, the version naming PostgreSQLDialect meant), not the dialect class:
   * without JDBC metadata Hibernate picks its dialect from the name, and naming one of its own
   * dialects makes it warn at every start (HHH90000025) that the setting is not needed.
   */
  public static Map<String, Object> hibernateProperties() {
    return Map.of(
        "jakarta.persistence.database-product-name", "PostgreSQL",
        "jakarta.persistence.database-major-version", "12",
        "hibernate.boot.allow_jdbc_metadata_access", "false",
        "hibernate.hbm2ddl.auto", "none",
        "hibernate.query.immutable_entity_update_query_handling_mode", "exception");
  }

  @Bean(TRANSACTION_MANAGER)
  JpaTransactionManager kairosHistoryTransactionManager(
      LocalContainerEntityManagerFactoryBean kairosHistoryEntityManagerFactory) {
    return new JpaTransactionManager(kairosHistoryEntityManagerFactory.getObject());
  }

  @Bean
  @ConditionalOnMissingBean
  HistoryReader kairosHistoryReader(
      TriggerHistoryRepository triggers, DailyReportRepository reports) {
    return new HistoryReader(triggers, reports);
  }
}
