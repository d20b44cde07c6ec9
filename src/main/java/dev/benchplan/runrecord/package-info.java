/**
 * run.json (schemas/run-record.schema.json): its typed record and its one reader. A package of its
 * own, below run, gate and analysis, because all three read run.json and run depends on gate.
 */
package dev.benchplan.runrecord;
