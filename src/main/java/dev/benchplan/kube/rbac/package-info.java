/**
 * Least privilege from the call table ({@link dev.benchplan.kube.KubeCall}): the permissions a
 * command needs ({@link dev.benchplan.kube.rbac.Permissions}), the check of them before anything is
 * created ({@link dev.benchplan.kube.rbac.PermissionCheck}), and the RBAC objects {@code benchplan
 * rbac} prints ({@link dev.benchplan.kube.rbac.RbacManifests}).
 */
package dev.benchplan.kube.rbac;
