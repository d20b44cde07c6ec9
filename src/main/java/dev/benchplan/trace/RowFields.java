package dev.benchplan.trace;

import java.util.Arrays;

/**
 * The fields of one trace row as the line parser found them; reused for every row so the hot loop
 * allocates nothing. "has" flags say the key was present, "valid" flags that its value passed the
 * type and range checks.
 */
final class RowFields {
  boolean hasTimestamp;
  boolean timestampValid;
  long timestamp;

  boolean hasInput;
  boolean inputValid;
  long input;

  boolean hasOutput;
  boolean outputValid;
  long output;

  boolean hasText;

  boolean hasHashIds;
  boolean hashIdsValid;

  /** The ids are {@code ids[idStart, idStart + idCount)} (a replayed row points into its batch). */
  long[] ids = new long[256];

  int idStart;
  int idCount;

  /** Problems the parser found in field values (kept only if the whole line is valid JSON). */
  int problemCount;

  String[] problemFields = new String[4];
  String[] problemMessages = new String[4];

  void reset() {
    hasTimestamp = false;
    timestampValid = false;
    hasInput = false;
    inputValid = false;
    hasOutput = false;
    outputValid = false;
    hasText = false;
    hasHashIds = false;
    hashIdsValid = false;
    idCount = 0;
    problemCount = 0;
  }

  void addId(long id) {
    if (idCount == ids.length) {
      ids = Arrays.copyOf(ids, ids.length * 2);
    }
    ids[idCount++] = id;
  }

  void addProblem(String field, String message) {
    if (problemCount == problemFields.length) {
      problemFields = Arrays.copyOf(problemFields, problemCount * 2);
      problemMessages = Arrays.copyOf(problemMessages, problemCount * 2);
    }
    problemFields[problemCount] = field;
    problemMessages[problemCount] = message;
    problemCount++;
  }
}
