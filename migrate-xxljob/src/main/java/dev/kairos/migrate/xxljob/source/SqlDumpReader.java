package dev.kairos.migrate.xxljob.source;

import dev.kairos.migrate.xxljob.source.SqlTokens.Kind;
import dev.kairos.migrate.xxljob.source.SqlTokens.Token;
import java.io.Reader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads {@code xxl_job_group} and {@code xxl_job_info} from a MySQL dump (mysqldump's output, or
 * xxl-job's own {@code tables_xxl_job.sql} with rows added): {@code CREATE TABLE} gives the column
 * order, {@code INSERT}/{@code REPLACE INTO ... VALUES (...),(...)} the rows, with or without a
 * column list. Every other statement and table is skipped.
 */
public final class SqlDumpReader {

  private static final Set<String> TABLES = Set.of(XxlRows.GROUP_TABLE, XxlRows.JOB_TABLE);

  /** Keywords that start a CREATE TABLE element that is not a column. */
  private static final Set<String> NOT_COLUMNS =
      Set.of(
          "PRIMARY",
          "KEY",
          "UNIQUE",
          "INDEX",
          "CONSTRAINT",
          "FULLTEXT",
          "SPATIAL",
          "FOREIGN",
          "CHECK",
          "PERIOD");

  /**
   * Words that are a value computed by the server without parentheses ({@code CURRENT_TIMESTAMP});
   * like a function call ({@code now()}), the importer cannot know their value.
   */
  private static final Set<String> NILADIC =
      Set.of(
          "CURRENT_TIMESTAMP",
          "CURRENT_DATE",
          "CURRENT_TIME",
          "LOCALTIME",
          "LOCALTIMESTAMP",
          "UTC_TIMESTAMP",
          "UTC_DATE",
          "UTC_TIME",
          "CURRENT_USER",
          "DEFAULT");

  private final Map<String, List<String>> columns = new HashMap<>();
  private final Map<String, List<Map<String, String>>> rows = new HashMap<>();

  /** table.column → SQL expression → ids of the rows holding it (read as unknown, i.e. NULL). */
  private final Map<String, Map<String, List<String>>> unknown = new LinkedHashMap<>();

  private SqlDumpReader() {}

  /** Reads a dump given as text (the API's body). */
  public static XxlJobTables read(String dump, String source) {
    return read(new StringReader(dump), source);
  }

  /**
   * Reads a dump statement by statement.
   *
   * @throws XxlSourceException when the dump is malformed or lacks one of the two tables
   */
  public static XxlJobTables read(Reader dump, String source) {
    SqlDumpReader reader = new SqlDumpReader();
    SqlStatementSplitter statements = new SqlStatementSplitter(dump);
    String sql;
    while ((sql = statements.next()) != null) {
      try {
        reader.statement(sql);
      } catch (XxlSourceException e) {
        throw new XxlSourceException(
            "line " + statements.statementLine() + ": " + e.getMessage(), e);
      }
    }
    for (String table : List.of(XxlRows.GROUP_TABLE, XxlRows.JOB_TABLE)) {
      if (!reader.columns.containsKey(table) && !reader.rows.containsKey(table)) {
        throw new XxlSourceException(
            "the dump has neither a CREATE TABLE nor an INSERT for "
                + table
                + "; dump the xxl-job database with both tables");
      }
    }
    return new XxlJobTables(
        source,
        XxlRows.groups(reader.rows.getOrDefault(XxlRows.GROUP_TABLE, List.of())),
        XxlRows.jobs(reader.rows.getOrDefault(XxlRows.JOB_TABLE, List.of())),
        reader.unknownNotes());
  }

  /**
   * One note per column and expression read as unknown: xxl-job's own {@code tables_xxl_job.sql}
   * writes {@code now()} into its time columns, which the importer does not evaluate.
   */
  private List<String> unknownNotes() {
    List<String> notes = new ArrayList<>();
    unknown.forEach(
        (column, expressions) ->
            expressions.forEach(
                (expression, ids) -> {
                  String table = column.substring(0, column.indexOf('.'));
                  String name = column.substring(column.indexOf('.') + 1);
                  notes.add(
                      column
                          + ": "
                          + ids.size()
                          + (ids.size() == 1 ? " row holds" : " rows hold")
                          + " the SQL expression "
                          + expression
                          + " ("
                          + rowList(ids)
                          + "), read as unknown: the importer does not evaluate SQL; "
                          + (XxlRows.reads(table, name)
                              ? "the column is read as NULL"
                              : "the importer does not use this column"));
                }));
    return notes;
  }

  private static String rowList(List<String> ids) {
    List<String> shown = ids.subList(0, Math.min(ids.size(), 5));
    return (ids.size() == 1 ? "row " : "rows ")
        + String.join(", ", shown)
        + (ids.size() > shown.size() ? ", ..." : "");
  }

  private void statement(String sql) {
    // Cheap test first: most statements of a dump (the log table's rows) are not ours.
    String head = sql.length() > 256 ? sql.substring(0, 256) : sql;
    String lower = head.toLowerCase(Locale.ROOT);
    if (TABLES.stream().noneMatch(lower::contains)) {
      return;
    }
    List<Token> tokens = SqlTokens.of(sql);
    Cursor at = new Cursor(tokens);
    if (at.peekWord("CREATE")) {
      createTable(at);
    } else if (at.peekWord("INSERT") || at.peekWord("REPLACE")) {
      insert(at);
    }
  }

  private void createTable(Cursor at) {
    at.next();
    at.skipWords("OR", "REPLACE", "TEMPORARY");
    if (!at.peekWord("TABLE")) {
      return;
    }
    at.next();
    at.skipWords("IF", "NOT", "EXISTS");
    String table = at.qualifiedName();
    if (!TABLES.contains(table)) {
      return;
    }
    at.expect('(');
    List<String> names = new ArrayList<>();
    while (true) {
      Token first = at.next();
      boolean column =
          first.kind() == Kind.IDENTIFIER
              || (first.kind() == Kind.WORD
                  && !NOT_COLUMNS.contains(first.text().toUpperCase(Locale.ROOT)));
      if (column) {
        names.add(first.text().toLowerCase(Locale.ROOT));
      }
      if (at.skipElement().isSymbol(')')) {
        break;
      }
    }
    columns.put(table, names);
  }

  private void insert(Cursor at) {
    at.next();
    at.skipWords("LOW_PRIORITY", "DELAYED", "HIGH_PRIORITY", "IGNORE");
    if (at.peekWord("INTO")) {
      at.next();
    }
    String table = at.qualifiedName();
    if (!TABLES.contains(table)) {
      return;
    }
    List<String> names;
    if (at.peekSymbol('(')) {
      at.next();
      names = new ArrayList<>();
      while (true) {
        Token name = at.next();
        if (!name.isName()) {
          throw new XxlSourceException(
              "INSERT INTO " + table + ": expected a column name, found '" + name.text() + "'");
        }
        names.add(name.text().toLowerCase(Locale.ROOT));
        if (at.next().isSymbol(')')) {
          break;
        }
      }
    } else {
      names = columns.get(table);
      if (names == null) {
        throw new XxlSourceException(
            "INSERT INTO "
                + table
                + " has no column list and no CREATE TABLE "
                + table
                + " comes before it");
      }
    }
    if (!(at.peekWord("VALUES") || at.peekWord("VALUE"))) {
      throw new XxlSourceException("INSERT INTO " + table + " without VALUES is not supported");
    }
    at.next();
    List<Map<String, String>> target = rows.computeIfAbsent(table, t -> new ArrayList<>());
    while (true) {
      at.expect('(');
      List<String> values = new ArrayList<>(names.size());
      Map<Integer, String> expressions = new LinkedHashMap<>();
      while (true) {
        String expression = at.expression(NILADIC);
        if (expression != null) {
          expressions.put(values.size(), expression);
          values.add(null);
        } else {
          values.add(at.value());
        }
        Token t = at.next();
        if (t.isSymbol(')')) {
          break;
        }
        if (!t.isSymbol(',')) {
          throw new XxlSourceException(
              "INSERT INTO "
                  + table
                  + ": expected ',' or ')' after a value, found '"
                  + t.text()
                  + "'");
        }
      }
      if (values.size() != names.size()) {
        throw new XxlSourceException(
            "INSERT INTO "
                + table
                + ": row "
                + (target.size() + 1)
                + " has "
                + values.size()
                + " values for "
                + names.size()
                + " columns");
      }
      Map<String, String> row = new LinkedHashMap<>();
      for (int i = 0; i < names.size(); i++) {
        row.put(names.get(i), values.get(i));
      }
      target.add(row);
      expressions.forEach(
          (index, expression) ->
              unknown
                  .computeIfAbsent(table + "." + names.get(index), c -> new LinkedHashMap<>())
                  .computeIfAbsent(expression, e -> new ArrayList<>())
                  .add(row.get("id") == null ? "#" + target.size() : "id=" + row.get("id")));
      if (!at.hasNext() || !at.peekSymbol(',')) {
        break;
      }
      at.next();
    }
  }

  /** Walks a statement's tokens. */
  private static final class Cursor {
    private final List<Token> tokens;
    private int i;

    Cursor(List<Token> tokens) {
      this.tokens = tokens;
    }

    boolean hasNext() {
      return i < tokens.size();
    }

    Token next() {
      if (i >= tokens.size()) {
        throw new XxlSourceException("statement ends too early");
      }
      return tokens.get(i++);
    }

    boolean peekWord(String word) {
      return hasNext() && tokens.get(i).isWord(word);
    }

    boolean peekSymbol(char symbol) {
      return hasNext() && tokens.get(i).isSymbol(symbol);
    }

    void skipWords(String... words) {
      boolean skipped = true;
      while (skipped) {
        skipped = false;
        for (String word : words) {
          if (peekWord(word)) {
            i++;
            skipped = true;
          }
        }
      }
    }

    /** Skips the rest of a list element; returns the ',' or ')' that ends it at this depth. */
    Token skipElement() {
      int depth = 0;
      while (true) {
        Token t = next();
        if (t.isSymbol('(')) {
          depth++;
        } else if (t.isSymbol(')')) {
          if (depth == 0) {
            return t;
          }
          depth--;
        } else if (t.isSymbol(',') && depth == 0) {
          return t;
        }
      }
    }

    void expect(char symbol) {
      Token t = next();
      if (!t.isSymbol(symbol)) {
        throw new XxlSourceException("expected '" + symbol + "', found '" + t.text() + "'");
      }
    }

    /** {@code `db`.`table`}, {@code db.table} or {@code table}: the table's name, lower case. */
    String qualifiedName() {
      Token name = next();
      String last = name.text();
      while (peekSymbol('.')) {
        next();
        last = next().text();
      }
      if (name.kind() == Kind.WORD && last.contains(".")) {
        last = last.substring(last.lastIndexOf('.') + 1);
      }
      return last.toLowerCase(Locale.ROOT);
    }

    /**
     * When the next value is one the server computes — a function call such as {@code now()},
     * {@code NOW(3)} or {@code unix_timestamp()}, or a word of {@code niladic} such as {@code
     * CURRENT_TIMESTAMP} — consumes it and returns its text as written (string arguments quoted);
     * returns {@code null} and consumes nothing before any other value.
     */
    String expression(Set<String> niladic) {
      if (!hasNext() || tokens.get(i).kind() != Kind.WORD) {
        return null;
      }
      String word = tokens.get(i).text();
      boolean call = i + 1 < tokens.size() && tokens.get(i + 1).isSymbol('(');
      if (!call && !niladic.contains(word.toUpperCase(Locale.ROOT))) {
        return null;
      }
      i++;
      StringBuilder text = new StringBuilder(word);
      if (call) {
        int depth = 0;
        do {
          Token t = next();
          if (t.isSymbol('(')) {
            depth++;
          } else if (t.isSymbol(')')) {
            depth--;
          }
          text.append(t.kind() == Kind.STRING ? "'" + t.text() + "'" : t.text());
        } while (depth > 0);
      }
      return text.toString();
    }

    /** One value of a row as text; SQL NULL is {@code null}. */
    String value() {
      Token t = next();
      if (t.kind() == Kind.STRING) {
        return t.text();
      }
      if (t.isSymbol('-') || t.isSymbol('+')) {
        Token number = next();
        return t.isSymbol('-') ? "-" + number.text() : number.text();
      }
      if (t.kind() != Kind.WORD) {
        throw new XxlSourceException("unexpected '" + t.text() + "' where a value should be");
      }
      String word = t.text();
      if (word.equalsIgnoreCase("NULL")) {
        return null;
      }
      if (word.equalsIgnoreCase("TRUE")) {
        return "1";
      }
      if (word.equalsIgnoreCase("FALSE")) {
        return "0";
      }
      if (hasNext() && tokens.get(i).kind() == Kind.STRING) {
        // _utf8mb4'text', _binary'text', X'6869'
        String text = next().text();
        return word.equalsIgnoreCase("X") ? SqlTokens.hex(text) : text;
      }
      if (word.length() > 2 && (word.startsWith("0x") || word.startsWith("0X"))) {
        return SqlTokens.hex(word.substring(2));
      }
      return word;
    }
  }
}
