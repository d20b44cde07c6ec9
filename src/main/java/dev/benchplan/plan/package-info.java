/**
 * Building, writing and reusing series plans. {@link dev.benchplan.plan.PlanService} turns a {@link
 * dev.benchplan.plan.PlanRequest} (user workload, deployment record, question, options) into an
 * immutable, canonical, schema-valid plan file ({@link dev.benchplan.plan.BenchmarkPlan}) written
 * once by {@link dev.benchplan.plan.SeriesStore}, or stops with blockers. The rules live in small
 * planners: {@link dev.benchplan.plan.ExperimentPlanner}, {@link
 * dev.benchplan.plan.ObjectivePlanner}, {@link dev.benchplan.plan.RunPolicyPlanner}; what a series
 * freezes is {@link dev.benchplan.plan.SeriesIdentity}.
 */
package dev.benchplan.plan;
