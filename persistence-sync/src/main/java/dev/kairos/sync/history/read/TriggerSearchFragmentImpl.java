package dev.kairos.sync.history.read;

import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;
import jakarta.persistence.criteria.Subquery;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageImpl;
import org.springframework.data.domain.Pageable;
import org.springframework.transaction.annotation.Transactional;

/** Spring Data finds this by its name: the implementation of {@link TriggerSearchFragment}. */
class TriggerSearchFragmentImpl implements TriggerSearchFragment {

  @PersistenceContext(unitName = HistoryReadConfiguration.UNIT)
  private EntityManager em;

  @Override
  @Transactional(readOnly = true)
  public Page<TriggerEntity> search(TriggerSearch search, Pageable page) {
    CriteriaBuilder cb = em.getCriteriaBuilder();
    CriteriaQuery<TriggerEntity> select = cb.createQuery(TriggerEntity.class);
    Root<TriggerEntity> t = select.from(TriggerEntity.class);
    select
        .where(predicates(cb, select, t, search))
        .orderBy(cb.desc(t.get("fireMs")), cb.asc(t.get("triggerId")));
    List<TriggerEntity> rows =
        em.createQuery(select)
            .setFirstResult((int) page.getOffset())
            .setMaxResults(page.getPageSize())
            .getResultList();
    CriteriaQuery<Long> count = cb.createQuery(Long.class);
    Root<TriggerEntity> c = count.from(TriggerEntity.class);
    count.select(cb.count(c)).where(predicates(cb, count, c, search));
    return new PageImpl<>(rows, page, em.createQuery(count).getSingleResult());
  }

  private static Predicate[] predicates(
      CriteriaBuilder cb, CriteriaQuery<?> query, Root<TriggerEntity> t, TriggerSearch search) {
    List<Predicate> where = new ArrayList<>();
    if (search.jobId() != null) {
      where.add(cb.equal(t.get("jobId"), search.jobId()));
    }
    if (search.app() != null) {
      // An IN over the app's job ids: PostgreSQL turns it into a semi-join that walks the
      // (job_id, fire_ms) index per job.
      Subquery<String> jobs = query.subquery(String.class);
      Root<JobAppEntity> j = jobs.from(JobAppEntity.class);
      jobs.select(j.get("jobId")).where(cb.equal(j.get("app"), search.app()));
      where.add(t.get("jobId").in(jobs));
    }
    if (!search.states().isEmpty()) {
      where.add(t.get("state").in(search.states()));
    }
    if (search.fromMs() != null) {
      where.add(cb.greaterThanOrEqualTo(t.get("fireMs"), search.fromMs()));
    }
    if (search.toMs() != null) {
      where.add(cb.lessThan(t.get("fireMs"), search.toMs()));
    }
    if (search.text() != null) {
      String pattern = "%" + escapeLike(search.text().toLowerCase(Locale.ROOT)) + "%";
      where.add(
          cb.or(
              cb.like(cb.lower(t.get("message")), pattern, '\\'),
              cb.like(cb.lower(t.get("lateMessage")), pattern, '\\')));
    }
    return where.toArray(Predicate[]::new);
  }

  /** The text is matched literally: {@code %} and {@code _} typed by a user are no wildcards. */
  static String escapeLike(String text) {
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
  }
}
