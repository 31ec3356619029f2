package dev.kairos.migrate.xxljob.source;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The tokens of one statement (comments are already gone): words, {@code `identifiers`}, string
 * literals with MySQL's escapes decoded, and single-character symbols. Only what CREATE TABLE and
 * INSERT need is recognised; anything else is a symbol.
 */
final class SqlTokens {

  enum Kind {
    WORD,
    IDENTIFIER,
    STRING,
    SYMBOL
  }

  record Token(Kind kind, String text) {

    boolean isWord(String word) {
      return kind == Kind.WORD && text.equalsIgnoreCase(word);
    }

    boolean isSymbol(char symbol) {
      return kind == Kind.SYMBOL && text.length() == 1 && text.charAt(0) == symbol;
    }

    /** A name: a backtick identifier or a bare word. */
    boolean isName() {
      return kind == Kind.IDENTIFIER || kind == Kind.WORD;
    }
  }

  private SqlTokens() {}

  static List<Token> of(String sql) {
    List<Token> tokens = new ArrayList<>();
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '\'' || c == '"') {
        StringBuilder value = new StringBuilder();
        i = string(sql, i, value);
        tokens.add(new Token(Kind.STRING, value.toString()));
      } else if (c == '`') {
        StringBuilder name = new StringBuilder();
        int j = i + 1;
        while (true) {
          if (j >= n) {
            throw new XxlSourceException("unterminated `identifier` in: " + abbreviate(sql));
          }
          char d = sql.charAt(j);
          if (d == '`') {
            if (j + 1 < n && sql.charAt(j + 1) == '`') {
              name.append('`');
              j += 2;
              continue;
            }
            break;
          }
          name.append(d);
          j++;
        }
        tokens.add(new Token(Kind.IDENTIFIER, name.toString()));
        i = j + 1;
      } else if (isWordChar(c)) {
        int j = i;
        while (j < n && (isWordChar(sql.charAt(j)) || isExponentSign(sql, j))) {
          j++;
        }
        tokens.add(new Token(Kind.WORD, sql.substring(i, j)));
        i = j;
      } else {
        tokens.add(new Token(Kind.SYMBOL, String.valueOf(c)));
        i++;
      }
    }
    return tokens;
  }

  /** Decodes MySQL's hexadecimal literals ({@code 0x6869}, {@code X'6869'}) as UTF-8 text. */
  static String hex(String digits) {
    String even = digits.length() % 2 == 0 ? digits : "0" + digits;
    return new String(HexFormat.of().parseHex(even), StandardCharsets.UTF_8);
  }

  private static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c == '.';
  }

  /** The sign of {@code 1.5e-3}: part of the number, not a minus. */
  private static boolean isExponentSign(String sql, int j) {
    char c = sql.charAt(j);
    if ((c != '-' && c != '+') || j < 2) {
      return false;
    }
    char e = sql.charAt(j - 1);
    return (e == 'e' || e == 'E') && Character.isDigit(sql.charAt(j - 2));
  }

  /**
   * Reads the literal starting at {@code start} (its quote) into {@code value}; returns the index
   * after the closing quote. Escapes as MySQL reads them without NO_BACKSLASH_ESCAPES; {@code \%}
   * and {@code \_} keep their backslash, as MySQL does.
   */
  private static int string(String sql, int start, StringBuilder value) {
    char quote = sql.charAt(start);
    int i = start + 1;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '\\' && i + 1 < n) {
        char e = sql.charAt(i + 1);
        switch (e) {
          case '0' -> value.append('\0');
          case 'b' -> value.append('\b');
          case 'n' -> value.append('\n');
          case 'r' -> value.append('\r');
          case 't' -> value.append('\t');
          case 'Z' -> value.append('\u001A');
          case '%', '_' -> value.append('\\').append(e);
          default -> value.append(e);
        }
        i += 2;
      } else if (c == quote) {
        if (i + 1 < n && sql.charAt(i + 1) == quote) {
          value.append(quote);
          i += 2;
        } else {
          return i + 1;
        }
      } else {
        value.append(c);
        i++;
      }
    }
    throw new XxlSourceException("unterminated string literal in: " + abbreviate(sql));
  }

  static String abbreviate(String sql) {
    return sql.length() <= 120 ? sql : sql.substring(0, 120) + "...";
  }
}
