package dev.benchplan.kube;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.benchplan.run.PerfYaml;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Holds the call table ({@link KubeCall}) impossible to bypass: fabric8 stays inside
 * dev.benchplan.kube, and only {@link ClusterAccess} (plus {@link KubeConnection}, which builds the
 * client, and {@link ApiErrors}, which reads its exceptions) calls anything of the client's API.
 */
class KubeApiConfinementTest {
  static JavaClasses main;

  @BeforeAll
  static void importMain() {
    main =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.benchplan");
  }

  @Test
  @DisplayName(
      "no class outside dev.benchplan.kube depends on fabric8, but perf.yaml's typed Job (the model"
          + " only)")
  void fabric8StaysInKube() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.benchplan.kube..")
        .and()
        .doNotHaveFullyQualifiedName(PerfYaml.class.getName())
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.fabric8..")
        .check(main);
    // perf.yaml is read into fabric8's typed Job (issue 33): values, never the client's API
    noClasses()
        .that()
        .haveFullyQualifiedName(PerfYaml.class.getName())
        .should()
        .dependOnClassesThat(
            JavaClass.Predicates.resideInAPackage("io.fabric8..")
                .and(
                    DescribedPredicate.not(
                        JavaClass.Predicates.resideInAPackage(
                            "io.fabric8.kubernetes.api.model.."))))
        .check(main);
  }

  /** Only the table's owner (and the client's builder and error reader) call the client's API. */
  static final ArchRule ONLY_CLUSTER_ACCESS =
      noClasses()
          .that()
          .doNotHaveFullyQualifiedName(ClusterAccess.class.getName())
          .and()
          .doNotHaveFullyQualifiedName(KubeConnection.class.getName())
          .and()
          .doNotHaveFullyQualifiedName(ApiErrors.class.getName())
          .and(
              new DescribedPredicate<JavaClass>("are not nested in ClusterAccess") {
                @Override
                public boolean test(JavaClass c) {
                  return !c.getName().startsWith(ClusterAccess.class.getName() + "$");
                }
              })
          .should()
          .accessTargetWhere(
              new DescribedPredicate<JavaAccess<?>>(
                  "the target is in io.fabric8.kubernetes.client") {
                @Override
                public boolean test(JavaAccess<?> access) {
                  return access
                      .getTargetOwner()
                      .getPackageName()
                      .startsWith("io.fabric8.kubernetes.client");
                }
              });

  @Test
  @DisplayName("only ClusterAccess, KubeConnection and ApiErrors call the Kubernetes client's API")
  void onlyClusterAccessCallsTheClient() {
    ONLY_CLUSTER_ACCESS.check(main);
  }

  /** A call around the table, for the rule to catch. */
  static final class Bypass {
    static Object pods(io.fabric8.kubernetes.client.KubernetesClient client) {
      return client.pods().inNamespace("x").list();
    }
  }

  @Test
  @DisplayName("the rule catches a direct client call")
  void ruleCatchesABypass() {
    JavaClasses bypass = new ClassFileImporter().importClasses(Bypass.class);
    EvaluationResult result = ONLY_CLUSTER_ACCESS.evaluate(bypass);
    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().getDetails())
        .anyMatch(d -> d.contains("KubernetesClient.pods()"));
  }

  @Test
  @DisplayName("every ClusterAccess method that calls the API takes the table row it serves")
  void everyCallNamesItsRow() {
    Set<String> noRule =
        Set.of(
            "apiGroup",
            "apiResources",
            "allowed",
            "defaultNamespace",
            "contextName",
            "serverUrl",
            "unmarshal",
            "asJson",
            "close",
            "of",
            "context",
            "warm");
    List<String> withoutRow =
        Arrays.stream(ClusterAccess.class.getDeclaredMethods())
            .filter(m -> Modifier.isPublic(m.getModifiers()) && !m.isSynthetic())
            .filter(m -> !noRule.contains(m.getName()))
            .filter(m -> m.getParameterCount() == 0 || m.getParameterTypes()[0] != KubeCall.class)
            .map(Method::getName)
            .toList();
    assertThat(withoutRow).isEmpty();
  }
}
