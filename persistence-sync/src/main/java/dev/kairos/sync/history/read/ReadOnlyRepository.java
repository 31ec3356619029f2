package dev.kairos.sync.history.read;

import java.util.Optional;
import org.springframework.data.repository.NoRepositoryBean;
import org.springframework.data.repository.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * The base of every history repository: finders only. It extends the marker {@link Repository}, not
 * {@code CrudRepository}, so no {@code save} or {@code delete} exists to call; every method runs in
 * a read-only transaction, which PostgreSQL enforces ({@code BEGIN READ ONLY}) on top of the
 * entities being {@code @Immutable}.
 */
@NoRepositoryBean
@Transactional(readOnly = true)
public interface ReadOnlyRepository<T, I> extends Repository<T, I> {

  Optional<T> findById(I id);
}
