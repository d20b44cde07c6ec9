package dev.benchplan.analysis;

import dev.benchplan.analysis.report.AnalysisDoc;
import dev.benchplan.analysis.report.AuditDoc;
import dev.benchplan.analysis.report.Plots;
import dev.benchplan.analysis.report.RepeatDecisionDoc;
import dev.benchplan.analysis.report.SummaryDoc;
import dev.benchplan.analysis.series.FindingLine;
import dev.benchplan.analysis.stats.BootstrapPercentiles;
import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Loads what analyze needs after the scan (schema validators, the documents' JSON serializers,
 * JFreeChart's first draw, Commons Statistics' samplers) on a daemon thread while the per-request
 * records are read: the scan keeps one core busy, and these fixed costs otherwise come after it.
 * Nothing it does is kept except caches: the outputs are the same either way.
 */
final class AnalyzeWarmUp {
  private AnalyzeWarmUp() {}

  /**
   * Starts the warm-up; failures are ignored (everything loads lazily anyway).
   *
   * @param plans whether a RUN is a benchplan run directory, whose plan is read (and checked
   *     against the plan schema, the largest) while the records are scanned; plain AIPerf
   *     directories have no plan, and compiling its schema would be work for nothing
   */
  static void start(boolean plans) {
    Thread t = new Thread(() -> warm(plans), "benchplan-analyze-warm-up");
    t.setDaemon(true);
    t.start();
  }

  /** {@code type} and the record types its components hold (in lists, maps, arrays), once. */
  private static void collect(Type type, Set<Class<?>> out) {
    if (type instanceof ParameterizedType p) {
      for (Type arg : p.getActualTypeArguments()) {
        collect(arg, out);
      }
    } else if (type instanceof GenericArrayType a) {
      collect(a.getGenericComponentType(), out);
    } else if (type instanceof Class<?> c) {
      if (c.isArray()) {
        collect(c.getComponentType(), out);
      } else if (c.isRecord() && out.add(c)) {
        for (RecordComponent rc : c.getRecordComponents()) {
          collect(rc.getGenericType(), out);
        }
      }
    }
  }

  private static void warm(boolean plans) {
    try {
      if (plans) {
        SchemaValidator.bundled("benchmark-plan.schema.json");
      }
      for (String schema :
          new String[] {
            "benchmark-audit.schema.json",
            "benchmark-summary.schema.json",
            "performance-analysis.schema.json",
            "repeat-decision.schema.json"
          }) {
        SchemaValidator.bundled(schema);
      }
      // every record type the documents hold, not only the roots: a nested type's serializer is
      // otherwise built when the first document is turned into a tree, after the scan
      Set<Class<?>> types = new LinkedHashSet<>();
      for (Class<?> doc :
          new Class<?>[] {
            AnalysisDoc.class,
            AuditDoc.class,
            SummaryDoc.class,
            RepeatDecisionDoc.class,
            FindingLine.class // the findings log's line, written last
          }) {
        collect(doc, types);
      }
      for (Class<?> type : types) {
        Json.JSON.writerFor(type);
      }
      double[] sorted = new double[1000];
      for (int i = 0; i < sorted.length; i++) {
        sorted[i] = i;
      }
      BootstrapPercentiles.estimate(sorted, 99, 0);
      Plots.warmUp();
    } catch (RuntimeException | LinkageError ignored) {
      // best effort
    }
  }
}
