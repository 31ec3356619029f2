package dev.kairos.migrate.xxljob.source;

import java.io.IOException;
import java.io.PushbackReader;
import java.io.Reader;
import java.io.UncheckedIOException;

/**
 * Splits a MySQL dump into statements, one at a time, without reading the whole file: a dump of a
 * busy xxl-job database is mostly {@code xxl_job_log}, which the importer never keeps. Comments
 * ({@code -- }, {@code #}, {@code /* *}{@code /}, including mysqldump's versioned {@code /*!40101
 * ... *}{@code /} settings) are dropped; quoted strings and identifiers are kept verbatim, escapes
 * included, so a {@code ;} or a comment marker inside a value does not split anything.
 */
final class SqlStatementSplitter {

  private final PushbackReader in;
  private int line = 1;
  private int statementLine = 1;

  SqlStatementSplitter(Reader in) {
    this.in = new PushbackReader(in, 2);
  }

  /** Line the statement last returned by {@link #next()} starts on (for error messages). */
  int statementLine() {
    return statementLine;
  }

  /** The next statement without its {@code ;}, or {@code null} at the end of the input. */
  String next() {
    StringBuilder sql = new StringBuilder();
    boolean started = false;
    int c;
    while ((c = read()) != -1) {
      if (!started && !Character.isWhitespace(c)) {
        started = true;
        statementLine = line;
      }
      switch (c) {
        case ';' -> {
          String statement = sql.toString().strip();
          if (!statement.isEmpty()) {
            return statement;
          }
          sql.setLength(0);
          started = false;
        }
        case '\'', '"', '`' -> quoted(c, sql);
        case '#' -> lineComment();
        case '-' -> {
          int d = read();
          int e = d == '-' ? read() : -1;
          if (d == '-' && (e == -1 || Character.isWhitespace(e))) {
            if (e == '\n') {
              sql.append('\n');
            } else {
              lineComment();
            }
            sql.append(' ');
          } else {
            unread(e);
            unread(d);
            sql.append('-');
          }
        }
        case '/' -> {
          int d = read();
          if (d == '*') {
            blockComment();
            sql.append(' ');
          } else {
            unread(d);
            sql.append('/');
          }
        }
        default -> sql.append((char) c);
      }
      if (!started) {
        sql.setLength(0);
      }
    }
    String rest = sql.toString().strip();
    return rest.isEmpty() ? null : rest;
  }

  /** Copies a quoted string or identifier, escapes and doubled quotes included. */
  private void quoted(int quote, StringBuilder sql) {
    int startLine = line;
    sql.append((char) quote);
    int c;
    while ((c = read()) != -1) {
      sql.append((char) c);
      if (c == '\\' && quote != '`') {
        int escaped = read();
        if (escaped == -1) {
          break;
        }
        sql.append((char) escaped);
      } else if (c == quote) {
        int d = read();
        if (d == quote) {
          sql.append((char) d);
        } else {
          unread(d);
          return;
        }
      }
    }
    throw new XxlSourceException(
        "the dump ends inside a " + (char) quote + "-quoted value opened on line " + startLine);
  }

  private void lineComment() {
    int c;
    while ((c = read()) != -1 && c != '\n') {
      // skipped
    }
  }

  private void blockComment() {
    int startLine = line;
    int previous = 0;
    int c;
    while ((c = read()) != -1) {
      if (previous == '*' && c == '/') {
        return;
      }
      previous = c;
    }
    throw new XxlSourceException("the dump ends inside a /* comment opened on line " + startLine);
  }

  private int read() {
    try {
      int c = in.read();
      if (c == '\n') {
        line++;
      }
      return c;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void unread(int c) {
    if (c == -1) {
      return;
    }
    try {
      in.unread(c);
      if (c == '\n') {
        line--;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
