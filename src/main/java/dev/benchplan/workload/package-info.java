/**
 * The inputs of a plan: the user workload ({@link dev.benchplan.workload.UserWorkload}), the record
 * of the deployed candidate ({@link dev.benchplan.workload.DeploymentRecord}) with its smoke
 * evidence, how they are read and checked ({@link dev.benchplan.workload.InputDocument}, {@link
 * dev.benchplan.workload.UserWorkloadReader}, {@link
 * dev.benchplan.workload.DeploymentLedgerReader}, {@link dev.benchplan.workload.SecretScanner}),
 * and workload source selection ({@link dev.benchplan.workload.WorkloadSourceSelector}, {@link
 * dev.benchplan.workload.RecipeCatalogue}).
 */
package dev.benchplan.workload;
