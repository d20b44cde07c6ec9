/**
 * The Kubernetes objects of perf.yaml (ConfigMaps and the batch/v1 Job) built as Jackson trees,
 * never from string templates and never with a Kubernetes client model, so render stays free of
 * cluster libraries. Only fields that exist in Kubernetes 1.20 are written.
 */
package dev.benchplan.render.manifest;
