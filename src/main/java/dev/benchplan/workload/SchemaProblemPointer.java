package dev.benchplan.workload;

import dev.benchplan.json.SchemaValidator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where to point a person for a schema problem: an unknown property is reported by the validator at
 * its parent object; the property's own pointer (and line) is what the person has to edit.
 */
final class SchemaProblemPointer {
  private static final Pattern UNKNOWN = Pattern.compile("property '([^']+)' is not defined");

  private SchemaProblemPointer() {}

  static String of(SchemaValidator.Problem p) {
    Matcher m = UNKNOWN.matcher(p.message());
    if (m.find()) {
      return p.pointer() + "/" + m.group(1).replace("~", "~0").replace("/", "~1");
    }
    return p.pointer();
  }
}
