package dev.benchplan.gate;

import java.io.ByteArrayOutputStream;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * A verdict as JUnit XML (one testsuite, the same tests as the CTRF report), built with the JDK's
 * DOM and serializer so every attribute and text is escaped by the XML library, not by hand.
 */
public final class JunitReport {
  private JunitReport() {}

  /** The JUnit XML document as UTF-8 bytes. */
  public static byte[] toXml(Verdict v, ReportTiming timing) {
    try {
      DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
      dbf.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      Document doc = dbf.newDocumentBuilder().newDocument();
      List<CtrfReport.Test> tests = CtrfReport.tests(v, timing);
      long failures = tests.stream().filter(t -> t.status() == Status.FAIL).count();
      long errors = tests.stream().filter(t -> t.status() == Status.ERROR).count();
      long skipped = tests.stream().filter(t -> t.status() == Status.SKIP).count();
      String time = seconds(timing.durationMillis());

      Element suites = doc.createElement("testsuites");
      doc.appendChild(suites);
      suites.setAttribute("name", "benchplan gate");
      suites.setAttribute("tests", Integer.toString(tests.size()));
      suites.setAttribute("failures", Long.toString(failures));
      suites.setAttribute("errors", Long.toString(errors));
      suites.setAttribute("skipped", Long.toString(skipped));
      suites.setAttribute("time", time);

      Element suite = doc.createElement("testsuite");
      suites.appendChild(suite);
      suite.setAttribute("name", "benchplan-gate");
      suite.setAttribute("tests", Integer.toString(tests.size()));
      suite.setAttribute("failures", Long.toString(failures));
      suite.setAttribute("errors", Long.toString(errors));
      suite.setAttribute("skipped", Long.toString(skipped));
      suite.setAttribute("time", time);
      suite.setAttribute(
          "timestamp",
          DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(
              timing.start().atOffset(ZoneOffset.UTC).withNano(0)));

      Element props = doc.createElement("properties");
      suite.appendChild(props);
      property(doc, props, "verdict", v.verdict().json());
      property(doc, props, "message", v.message());
      property(doc, props, "source", v.source().path());
      if (v.source().sha256() != null) {
        property(doc, props, "source.sha256", v.source().sha256());
      }
      if (v.source().aiperfVersion() != null) {
        property(doc, props, "aiperf.version", v.source().aiperfVersion());
      }
      property(doc, props, "constraints.source", v.constraintsSource());
      for (int i = 0; i < v.warnings().size(); i++) {
        property(doc, props, "warning." + (i + 1), v.warnings().get(i));
      }

      for (CtrfReport.Test t : tests) {
        Element tc = doc.createElement("testcase");
        suite.appendChild(tc);
        tc.setAttribute("classname", "benchplan.gate");
        tc.setAttribute("name", clean(t.name()));
        tc.setAttribute("time", seconds(t.durationMs()));
        String outcome =
            switch (t.status()) {
              case FAIL -> "failure";
              case ERROR -> "error";
              case SKIP -> "skipped";
              case PASS -> null;
            };
        if (outcome != null) {
          Element e = doc.createElement(outcome);
          e.setAttribute("message", clean(t.message()));
          if (t.status() != Status.SKIP) {
            e.setAttribute("type", t.status().json());
            e.setTextContent(clean(t.message()));
          }
          tc.appendChild(e);
        } else {
          Element out = doc.createElement("system-out");
          out.setTextContent(clean(t.message()));
          tc.appendChild(out);
        }
      }

      TransformerFactory tf = TransformerFactory.newInstance();
      tf.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      Transformer tr = tf.newTransformer();
      tr.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
      tr.setOutputProperty(OutputKeys.INDENT, "yes");
      tr.setOutputProperty("{http://xml.apache.org/xslt}indent-amount", "2");
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      tr.transform(new DOMSource(doc), new StreamResult(bytes));
      return bytes.toByteArray();
    } catch (ParserConfigurationException | TransformerException e) {
      throw new IllegalStateException("cannot build JUnit XML: " + e.getMessage(), e);
    }
  }

  private static void property(Document doc, Element props, String name, String value) {
    Element p = doc.createElement("property");
    p.setAttribute("name", name);
    p.setAttribute("value", clean(value));
    props.appendChild(p);
  }

  /**
   * Replaces characters XML 1.0 cannot carry at all (control characters such as the ANSI escape in
   * a pod log's tail): the serializer escapes markup but would write such characters as references
   * that XML parsers reject.
   */
  static String clean(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder sb = new StringBuilder(s.length());
    s.codePoints()
        .forEach(
            cp -> {
              boolean ok =
                  cp == 0x9
                      || cp == 0xA
                      || cp == 0xD
                      || (cp >= 0x20 && cp <= 0xD7FF)
                      || (cp >= 0xE000 && cp <= 0xFFFD)
                      || (cp >= 0x10000 && cp <= 0x10FFFF);
              if (ok) {
                sb.appendCodePoint(cp);
              } else {
                sb.append(String.format(Locale.ROOT, "\\u%04x", cp));
              }
            });
    return sb.toString();
  }

  private static String seconds(long millis) {
    return String.format(Locale.ROOT, "%.3f", millis / 1000.0);
  }
}
