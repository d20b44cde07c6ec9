/**
 * Cluster-tier test support: a real Kubernetes control plane (etcd + kube-apiserver +
 * kube-controller-manager v1.20.2 on 127.0.0.1, from {@code scripts/kube-test-env.sh}) plus the
 * stand-ins for what cannot run here.
 *
 * <ul>
 *   <li>{@link dev.benchplan.kubetest.KubeTestEnv @KubeTestEnv} on a {@code *IT} class: attaches to
 *       (or starts) the environment, gives the class its own namespace, injects {@link
 *       dev.benchplan.kubetest.KubeTestContext}, an admin {@code KubernetesClient} defaulting to
 *       that namespace, or {@link dev.benchplan.kubetest.KubeTestCluster}.
 *   <li>{@link dev.benchplan.kubetest.FakeKubelet}: scheduler + kubelet stand-in (Nodes with {@code
 *       nvidia.com/gpu}, binding, pod phases and exit codes per {@link
 *       dev.benchplan.kubetest.PodScript}, container logs over HTTPS for {@code pods/log}).
 *   <li>{@link dev.benchplan.kubetest.FakeDynamoOperator}: DynamoGraphDeployment status, frontend
 *       Service and worker pods, automatically or on cue.
 * </ul>
 *
 * <p>Real parts: API validation and defaulting, the DGD CRD's schema, RBAC, watches, the Job,
 * garbage-collector, namespace and TTL controllers, {@code pods/log} proxying. Stand-in parts:
 * scheduling, container execution, the Dynamo operator.
 */
package dev.benchplan.kubetest;
