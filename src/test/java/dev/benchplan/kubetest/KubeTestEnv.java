package dev.benchplan.kubetest;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a cluster-tier test class ({@code @Tag("cluster")}; name it {@code *IT} so failsafe runs
 * it) that needs the real Kubernetes control plane of {@code scripts/kube-test-env.sh}. See {@link
 * KubeTestEnvExtension} for how the environment is found or started, and inject {@link
 * KubeTestContext}, {@link io.fabric8.kubernetes.client.KubernetesClient} or {@link
 * KubeTestCluster} into constructors, lifecycle methods and test methods.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Tag("cluster")
@ExtendWith(KubeTestEnvExtension.class)
public @interface KubeTestEnv {}
