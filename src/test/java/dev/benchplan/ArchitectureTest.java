package dev.benchplan;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The layering the design names, checked on the compiled main classes. */
class ArchitectureTest {
  static JavaClasses main;

  @BeforeAll
  static void importMain() {
    main =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.benchplan");
  }

  @Test
  @DisplayName("commands depend on services, never the reverse: nothing outside cli/ uses cli/")
  void commandsOnTop() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.benchplan.cli..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.benchplan.cli..")
        .check(main);
  }

  @Test
  @DisplayName("the rules, errors and JSON helpers sit below every feature package")
  void foundationsBelow() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "dev.benchplan.rules..", "dev.benchplan.error..", "dev.benchplan.json..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.benchplan.plan..",
            "dev.benchplan.render..",
            "dev.benchplan.kube..",
            "dev.benchplan.validate..",
            "dev.benchplan.gate..",
            "dev.benchplan.cli..",
            "dev.benchplan.analysis..",
            "dev.benchplan.verify..",
            "dev.benchplan.trace..",
            "dev.benchplan.workload..")
        .check(main);
  }

  @Test
  @DisplayName("no cycles between the top-level packages")
  void noCycles() {
    slices().matching("dev.benchplan.(*)..").should().beFreeOfCycles().check(main);
  }
}
