package dev.benchplan.gate;

import java.util.Optional;

/** A comparison operator in a constraint expression such as {@code ">= 5000"}. */
public enum Operator {
  /** At least: a floor, e.g. throughput. */
  GE(">="),
  /** At most: a ceiling, e.g. a latency. */
  LE("<="),
  /** Strictly greater; parsed so it can be rejected with a clear message. */
  GT(">"),
  /** Strictly less; parsed so it can be rejected with a clear message. */
  LT("<"),
  /** Equal; parsed so it can be rejected with a clear message. */
  EQ("==");

  private final String symbol;

  Operator(String symbol) {
    this.symbol = symbol;
  }

  /** The operator as written, e.g. {@code ">="}. */
  public String symbol() {
    return symbol;
  }

  /** Parses a symbol ({@code =} is read as {@code ==}). */
  public static Optional<Operator> fromSymbol(String s) {
    if ("=".equals(s)) {
      return Optional.of(EQ);
    }
    for (Operator op : values()) {
      if (op.symbol.equals(s)) {
        return Optional.of(op);
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return symbol;
  }
}
