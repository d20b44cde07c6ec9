/**
 * The Kubernetes core shared by run ({@code kube.run}) and validate ({@code kube.validate}): the
 * one way a cluster is opened ({@link dev.benchplan.kube.KubeConnection}) and the one policy for
 * API failures ({@link dev.benchplan.kube.ApiErrors}). fabric8 is used only under this package.
 */
package dev.benchplan.kube;
