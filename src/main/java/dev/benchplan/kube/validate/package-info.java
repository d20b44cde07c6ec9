/**
 * The fabric8 implementation of validate's cluster port ({@link
 * dev.benchplan.validate.ValidateCluster}): DGD API discovery, DGD and Service discovery, GPU
 * inventory, namespaces, DGD deployment and cleanup; every API failure goes through {@link
 * dev.benchplan.kube.ApiErrors}.
 */
package dev.benchplan.kube.validate;
