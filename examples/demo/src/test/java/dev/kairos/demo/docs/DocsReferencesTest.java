package dev.kairos.demo.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The docs check (docs/development.md "The docs check"): README.md, docs/*.md and the modules'
 * README.md files may name only {@code kairos.*} properties some module declares, {@code -pl}
 * modules that exist and scripts that exist. It reads the repository's files, so it runs from
 * examples/demo (Maven's working directory for the module) after every module was compiled.
 *
 * <p>Declared names are the configuration metadata the Spring Boot configuration processor writes
 * for each {@code @ConfigurationProperties} class ({@code
 * <module>/target/classes/META-INF/spring-configuration-metadata.json}), the names of {@code
 * ConditionalOnProperty} switches, and — since metric and logger names share the {@code kairos.}
 * prefix — the {@code "kairos...."} string literals of the main sources (a literal ending with a
 * dot names a family: {@code "kairos.job." + handler}).
 */
class DocsReferencesTest {

  /** The repository: examples/demo's grandparent. */
  private static final Path ROOT = Path.of("").toAbsolutePath().resolve("../..").normalize();

  /**
   * Named in the docs but neither a property nor a literal: Maven build properties and a JSON field
   * of the xxl-job import report ({@code jobs[].kairos.action}).
   */
  private static final Set<String> NOT_PROPERTIES = Set.of("kairos.infra", "kairos.action");

  /**
   * {@code kairos.a.b-c}, {@code kairos.api.tokens[0].name}; not {@code dev.kairos.x}, {@code
   * ${kairos.version}}.
   */
  private static final Pattern MENTION =
      Pattern.compile("(?<![\\w.$/{-])kairos(?:\\.[A-Za-z0-9_-]+|\\[[^\\]\\s]*\\])+");

  private static final Pattern LITERAL = Pattern.compile("\"(kairos\\.[A-Za-z0-9_.-]+)\"");
  private static final Pattern CONFIG_PROPERTIES =
      Pattern.compile("@ConfigurationProperties\\(\\s*(?:(?:prefix|value)\\s*=\\s*)?\"([^\"]+)\"");
  private static final Pattern CONDITIONAL =
      Pattern.compile("@ConditionalOnProperty\\(([^)]*)\\)", Pattern.DOTALL);
  private static final Pattern PREFIX = Pattern.compile("prefix\\s*=\\s*\"([^\"]+)\"");
  private static final Pattern NAMES =
      Pattern.compile("(?:name|value)\\s*=\\s*(\\{[^}]*\\}|\"[^\"]*\")");
  private static final Pattern QUOTED = Pattern.compile("\"([^\"]+)\"");

  private static final Pattern MODULES = Pattern.compile("(?<![\\w-])-pl\\s+([\\w./:,-]+)");
  private static final Pattern SCRIPT =
      Pattern.compile(
          "(?<![\\w./-])((?:\\.{1,2}/)?(?:[\\w.-]+/)*[\\w-]+\\.sh|drills/drill)(?![\\w.-])");

  private static List<Path> docs;
  private static final Set<String> properties = new TreeSet<>();
  private static final Set<String> literals = new TreeSet<>();
  private static final Set<String> unbuiltPrefixes = new TreeSet<>();

  @BeforeAll
  static void readTheRepository() throws IOException {
    assertThat(ROOT.resolve("pom.xml")).as("the repository root, from examples/demo").exists();
    docs = new ArrayList<>();
    docs.add(ROOT.resolve("README.md"));
    try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
      files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    for (Path module : modules()) {
      if (Files.exists(module.resolve("README.md"))) {
        docs.add(module.resolve("README.md"));
      }
      readModule(module);
    }
  }

  @Test
  void everyKairosPropertyTheDocsNameIsDeclared() {
    List<String> unknown = new ArrayList<>();
    Set<String> unchecked = new TreeSet<>();
    forEachMatch(
        MENTION,
        (doc, line, raw) -> {
          String name = raw.replaceAll("\\[[^\\]]*\\]", "").replaceAll("[.]+$", "");
          if (known(name)) {
            return;
          }
          if (unbuiltPrefixes.stream().anyMatch(p -> name.equals(p) || name.startsWith(p + "."))) {
            unchecked.add(name);
            return;
          }
          unknown.add(where(doc, line) + ": " + raw);
        });
    if (!unchecked.isEmpty()) {
      System.err.println(
          "docs check: not checked (module not compiled, no configuration metadata): " + unchecked);
    }
    assertThat(unknown)
        .as(
            "kairos.* names in the docs that no @ConfigurationProperties class, ConditionalOnProperty"
                + " or main-source literal declares (renamed or removed?)")
        .isEmpty();
  }

  @Test
  void everyModuleNamedWithDashPlExists() {
    List<String> missing = new ArrayList<>();
    forEachMatch(
        MODULES,
        (doc, line, list) -> {
          for (String module : list.split(",")) {
            if (!module.isEmpty() && !Files.exists(ROOT.resolve(module).resolve("pom.xml"))) {
              missing.add(where(doc, line) + ": -pl " + module);
            }
          }
        });
    assertThat(missing).as("-pl modules that do not exist").isEmpty();
  }

  @Test
  void everyScriptTheDocsNameExists() {
    List<String> missing = new ArrayList<>();
    forEachMatch(
        SCRIPT,
        (doc, line, script) -> {
          boolean exists =
              Files.isRegularFile(ROOT.resolve(script).normalize())
                  || Files.isRegularFile(doc.getParent().resolve(script).normalize())
                  || (!script.contains("/") && anywhere(script));
          if (!exists) {
            missing.add(where(doc, line) + ": " + script);
          }
        });
    assertThat(missing).as("scripts the docs name that do not exist").isEmpty();
  }

  private static boolean known(String name) {
    if (NOT_PROPERTIES.contains(name) || literals.contains(name) || literals.contains(name + ".")) {
      return true;
    }
    for (String p : properties) {
      // the property, a group of properties (kairos.cluster), or an element of a list or map
      // property (kairos.api.tokens[0].name, kairos.executor.handlers.<handler>.threads)
      if (p.equals(name) || p.startsWith(name + ".") || name.startsWith(p + ".")) {
        return true;
      }
    }
    return literals.stream().anyMatch(l -> l.endsWith(".") && name.startsWith(l));
  }

  /** Whether a file of that name exists in the repository (a script named without its folder). */
  private static boolean anywhere(String fileName) {
    try (Stream<Path> files = Files.walk(ROOT, 4)) {
      return files.anyMatch(
          p ->
              p.getFileName().toString().equals(fileName)
                  && !p.toString().contains("/target/")
                  && !p.toString().contains("/.git/"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every folder with a pom.xml below the root (modules and examples), except target folders. */
  private static List<Path> modules() throws IOException {
    try (Stream<Path> poms = Files.walk(ROOT, 3)) {
      return poms.filter(p -> p.getFileName().toString().equals("pom.xml"))
          .map(Path::getParent)
          .filter(p -> !p.equals(ROOT) && !p.toString().contains("target"))
          .sorted()
          .toList();
    }
  }

  private static void readModule(Path module) throws IOException {
    Path metadata = module.resolve("target/classes/META-INF/spring-configuration-metadata.json");
    boolean built = Files.exists(metadata);
    if (built) {
      JsonNode json = new ObjectMapper().readTree(metadata.toFile());
      json.path("properties").forEach(p -> properties.add(p.path("name").asText()));
    }
    Path sources = module.resolve("src/main/java");
    if (!Files.isDirectory(sources)) {
      return;
    }
    try (Stream<Path> files = Files.walk(sources)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        String java = Files.readString(file);
        LITERAL.matcher(java).results().forEach(m -> literals.add(m.group(1)));
        if (!built) {
          CONFIG_PROPERTIES.matcher(java).results().forEach(m -> unbuiltPrefixes.add(m.group(1)));
        }
        Matcher conditional = CONDITIONAL.matcher(java);
        while (conditional.find()) {
          String args = conditional.group(1);
          Matcher prefix = PREFIX.matcher(args);
          String p = prefix.find() ? prefix.group(1) + "." : "";
          Matcher names = NAMES.matcher(args);
          while (names.find()) {
            QUOTED.matcher(names.group(1)).results().forEach(n -> properties.add(p + n.group(1)));
          }
        }
      }
    }
  }

  private interface MatchConsumer {
    void accept(Path doc, int line, String match);
  }

  private static void forEachMatch(Pattern pattern, MatchConsumer consumer) {
    for (Path doc : docs) {
      List<String> lines;
      try {
        lines = Files.readAllLines(doc);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      for (int i = 0; i < lines.size(); i++) {
        Matcher m = pattern.matcher(lines.get(i));
        while (m.find()) {
          consumer.accept(doc, i + 1, m.groupCount() == 0 ? m.group() : m.group(1));
        }
      }
    }
  }

  private static String where(Path doc, int line) {
    return ROOT.relativize(doc) + ":" + line;
  }
}
