package dev.benchplan.cli;

import dev.benchplan.error.ExitCode;
import dev.benchplan.verify.Finding;
import dev.benchplan.verify.VerifyReport;
import dev.benchplan.verify.VerifyService;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code benchplan verify PATH}: re-hash and re-derive a plan or a run directory, offline. */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    description = {
      "Verify a plan file (SHA-256, schema, file name, every input re-hashed, cited rules, and the"
          + " plan re-derived offline byte for byte), a DEPLOY_ROOT (re-rendered byte for byte), a"
          + " run directory (artifacts.sha256, run.json's files, the plan it names, the verdict"
          + " recomputed from the kept summary) or an analysis/comparison directory (inputs"
          + " re-hashed, documents recomputed).",
      "Exit 0 verified, 1 a finding (each listed: file, JSON pointer, what differs), 2 bad input."
    })
public final class VerifyCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin FormatMixin format;

  @Parameters(
      index = "0",
      paramLabel = "PATH",
      description =
          "A plan file, a DEPLOY_ROOT, a run directory, or an analysis or comparison"
              + " directory.")
  Path path;

  @Option(
      names = "--sha256",
      paramLabel = "SHA256",
      description = "The SHA-256 the plan file must hash to.")
  String sha256;

  @Override
  public Integer call() {
    VerifyReport report = new VerifyService(PlanCommand::replay).verify(path, sha256);
    return Printer.print(
        spec.commandLine(),
        format,
        Output.of(report),
        report.verified() ? ExitCode.OK : ExitCode.GATE_FAILED);
  }

  /** The {@code --format json} result. */
  record Output(
      String kind,
      String path,
      @Nullable String sha256,
      boolean verified,
      java.util.List<String> checks,
      java.util.List<Finding> findings,
      java.util.List<String> notes)
      implements CommandOutput {
    static Output of(VerifyReport r) {
      return new Output(
          r.kind(), r.path(), r.sha256(), r.verified(), r.checks(), r.findings(), r.notes());
    }

    @Override
    public void printText(PrintWriter out) {
      for (Finding f : findings) {
        out.println(f.line());
      }
      for (String n : notes) {
        out.println("note: " + n);
      }
      out.println(
          (verified ? "verified: " : "NOT verified: ")
              + kind
              + " "
              + path
              + (sha256 == null ? "" : " (sha256 " + sha256 + ")")
              + " — "
              + findings.size()
              + " finding(s); checked: "
              + String.join(", ", checks));
    }
  }
}
