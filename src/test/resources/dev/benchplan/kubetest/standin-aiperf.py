#!/usr/bin/env python3
"""Stand-in `aiperf` for the kubelet stand-in (dev.benchplan.kubetest.StandInAiperf).

`aiperf profile ...` writes a real AIPerf artifact tree, copied byte for byte from a real sweep
(BENCHPLAN_STANDIN_AIPERF_DATA: a folder of concurrency<N>/ run folders), in the layout AIPerf
itself uses for the flags or config it was given (../shared/reference/aiperf-analysis.md):

  no sweep, 1 run      <base>/
  no sweep, N runs     <base>/profile_runs/run_NNNN/ + <base>/aggregate/
  sweep, 1 run         <base>/<param>_<value>/ + <base>/sweep_aggregate/
  sweep, N, repeated   <base>/profile_runs/trial_NNNN/<param>_<value>/ + <base>/aggregate/<param>_<value>/
                       + <base>/aggregate/sweep_aggregate/
  sweep, N, independent <base>/<param>_<value>/profile_runs/trial_NNNN/ + <base>/<param>_<value>/aggregate/
                       + <base>/sweep_aggregate/

Inputs: `--config FILE` (native config: benchmark.artifacts.dir, multiRun.numRuns, the profiling
phase's concurrency) or the flags --artifact-dir, --concurrency (a comma list sweeps),
--request-rate, --num-profile-runs, --parameter-sweep-mode. Paths inside the pod are mapped to
local ones by BENCHPLAN_STANDIN_PATH_MAP (lines POD_PATH=LOCAL_PATH).
Knobs: BENCHPLAN_STANDIN_AIPERF_EXIT (exit code, default 0), BENCHPLAN_STANDIN_AIPERF_RECORDS_BYTES
(grow each run's profile_export.jsonl to at least this size by repeating its real records),
BENCHPLAN_STANDIN_AIPERF_SECONDS (sleep per run), BENCHPLAN_STANDIN_AIPERF_REPEAT_SOURCES (a comma list of
concurrency<N> folders, e.g. "1,4,4": run k of a multi-run copies the k-th, so the repeats disagree),
BENCHPLAN_STANDIN_AIPERF_SYNTHETIC=1 (copy nothing: generate each run from a made-up, seeded latency
model -- TTFT about 25 ms x C^2, ITL 0.2 ms + 0.05 ms x C -- in AIPerf's file names, fields and units,
for the request count, ISL and OSL asked for, and write SYNTHETIC.txt at the top of the artifact
directory saying so; `benchplan run` records that marker in run.json's artifacts.synthetic),
BENCHPLAN_STANDIN_AIPERF_SOURCE (the concurrency<N> folder every other run copies, whatever its concurrency:
separate Jobs that disagree).
Prints a few lines of what AIPerf prints (start, progress, the artifact folder).
"""
import json
import math
import os
import re
import shutil
import statistics
import sys
import time

T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}


def remap(path):
    for line in os.environ.get("BENCHPLAN_STANDIN_PATH_MAP", "").splitlines():
        pod, sep, local = line.partition("=")
        if not sep:
            continue
        pod = pod.rstrip("/")
        if path == pod or path.startswith(pod + "/"):
            return local.rstrip("/") + path[len(pod):]
    return path


def fail(msg, code=2):
    print("aiperf (stand-in): " + msg, file=sys.stderr)
    sys.exit(code)


def parse_args(argv):
    if not argv or argv[0] != "profile":
        fail("only `aiperf profile` is stood in, got %r" % (argv,))
    opts = {}
    i = 1
    while i < len(argv):
        a = argv[i]
        if a.startswith("--"):
            if "=" in a:
                k, v = a[2:].split("=", 1)
                opts[k] = v
            elif i + 1 < len(argv) and not argv[i + 1].startswith("--"):
                opts[a[2:]] = argv[i + 1]
                i += 1
            else:
                opts[a[2:]] = "true"
        i += 1
    return opts


def from_config(path):
    text = open(remap(path), encoding="utf-8").read()
    conf = {}
    m = re.search(r"^\s*artifacts:\s*\n(?:\s+.*\n)*?\s+dir:\s*\"?([^\"\n]+)\"?\s*$", text, re.M)
    if m:
        conf["artifact-dir"] = m.group(1).strip()
    m = re.search(r"^\s*numRuns:\s*(\d+)", text, re.M)
    if m:
        conf["num-profile-runs"] = m.group(1)
    found = re.findall(r"^\s*concurrency:\s*(\d+)", text, re.M)
    if found:
        conf["concurrency"] = found[-1]  # the profiling phase comes after the warmup
    found = re.findall(r"^\s*requests:\s*(\d+)", text, re.M)
    if found:
        conf["request-count"] = found[-1]  # the profiling phase comes after the warmup
    for key, flag in (("isl", "synthetic-input-tokens-mean"), ("osl", "output-tokens-mean")):
        m = re.search(r"^\s*" + key + r":\s*\n\s+mean:\s*(\d+)", text, re.M)
        if m:
            conf[flag] = m.group(1)
    m = re.search(r"^\s*model:\s*\"?([^\"\n]+)\"?\s*$", text, re.M)
    if m:
        conf["model"] = m.group(1).strip()
    found = re.findall(r"^\s*rate:\s*([0-9.]+)", text, re.M)
    if found and "concurrency" not in conf:
        conf["request-rate"] = found[-1]
    return conf


def sources(data):
    runs = {}
    for name in os.listdir(data):
        m = re.fullmatch(r"concurrency(\d+)", name)
        if m and os.path.isdir(os.path.join(data, name)):
            runs[int(m.group(1))] = os.path.join(data, name)
    if not runs:
        fail("no concurrency<N>/ run folders in %s" % data, 127)
    return runs


def source_for(runs, value, index):
    try:
        v = int(float(value))
    except (TypeError, ValueError):
        v = None
    if v in runs:
        return runs[v]
    keys = sorted(runs)
    if v is None:
        return runs[keys[index % len(keys)]]
    below = [k for k in keys if k <= v]
    return runs[below[-1] if below else keys[0]]


def write_run(src, dest, grow):
    os.makedirs(dest, exist_ok=True)
    for name in sorted(os.listdir(src)):
        shutil.copyfile(os.path.join(src, name), os.path.join(dest, name))
    records = os.path.join(dest, "profile_export.jsonl")
    if grow > 0 and os.path.exists(records):
        lines = open(records, "rb").read().splitlines(keepends=True) or [b"{}\n"]
        size = os.path.getsize(records)
        with open(records, "ab") as f:
            i = 0
            while size < grow:
                line = lines[i % len(lines)]
                f.write(line)
                size += len(line)
                i += 1
    with open(os.path.join(dest, "profile_export_aiperf.json"), "rb") as f:
        return json.load(f)


SYNTHETIC_MARKER = "SYNTHETIC.txt"
SYNTHETIC_LABEL = ("synthetic: generated by benchplan's stand-in aiperf (test resource"
                   " dev/benchplan/kubetest/standin-aiperf.py, a seeded made-up latency model),"
                   " not measured by AIPerf on any deployment")


def synthetic_run(dest, c, repetition, requests, isl, osl, model):
    """One AIPerf-shaped run generated from the made-up latency model (no third-party data)."""
    import random
    r = random.Random(1000 + 100 * repetition + c)
    os.makedirs(dest, exist_ok=True)
    ttft_ms, itl_ms = 25.0 * c * c, 0.2 + 0.05 * c
    t0 = 1796034000000000000 + repetition * 3600 * 10**9
    slots = [0] * c
    ttft, itl, lat, lines = [], [], [], []
    for i in range(requests):
        a = round(ttft_ms * (0.7 + 0.6 * r.random()), 3)
        b = round(itl_ms * (0.9 + 0.2 * r.random()), 3)
        total = round(a + b * (osl - 1), 3)
        start = t0 + slots[i % c]
        end = start + int(total * 1e6)
        slots[i % c] = end - t0
        ttft.append(a); itl.append(b); lat.append(total)
        lines.append(json.dumps({
            "metadata": {"x_request_id": "synthetic-%d-%d-%d" % (c, repetition, i),
                         "request_start_ns": start, "request_end_ns": end,
                         "benchmark_phase": "profiling", "was_cancelled": False},
            "metrics": {"time_to_first_token": {"value": a, "unit": "ms"},
                        "inter_token_latency": {"value": b, "unit": "ms"},
                        "request_latency": {"value": total, "unit": "ms"},
                        "output_sequence_length": {"value": osl, "unit": "tokens"},
                        "input_sequence_length": {"value": isl, "unit": "tokens"}},
            "error": None}))
    with open(os.path.join(dest, "profile_export.jsonl"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")

    def metric(unit, avg, values=None):
        m = {"unit": unit, "avg": round(avg, 3)}
        if values:
            v = sorted(values)
            for name, q in (("min", 0.0), ("p50", 0.50), ("p90", 0.90), ("p95", 0.95), ("p99", 0.99), ("max", 1.0)):
                m[name] = v[int(round(q * (len(v) - 1)))]
        return m

    mean_lat = statistics.fmean(lat)
    throughput = round(c * osl * 1000.0 / mean_lat, 3)
    summary = {
        "aiperf_version": "0.13.0", "schema_version": "1.0",
        "output_token_throughput": metric("tokens/sec", throughput),
        "request_throughput": metric("requests/sec", throughput / osl),
        "request_count": metric("requests", requests),
        "time_to_first_token": metric("ms", statistics.fmean(ttft), ttft),
        "inter_token_latency": metric("ms", statistics.fmean(itl), itl),
        "request_latency": metric("ms", mean_lat, lat),
        "input_sequence_length": metric("tokens", isl),
        "output_sequence_length": metric("tokens", osl),
        "input_config": {"endpoint": {"type": "chat", "streaming": True, "model_names": [model]},
                         "input": {"random_seed": 100, "prompt": {
                             "input_tokens": {"mean": isl, "stddev": 0},
                             "output_tokens": {"mean": osl, "stddev": 0}}},
                         "loadgen": {"concurrency": c, "request_count": requests}},
        "was_cancelled": False}
    write_json(os.path.join(dest, "profile_export_aiperf.json"), summary)
    return summary


def stats_of(summaries, run_labels):
    metrics = {}
    first = summaries[0]
    for tag, value in first.items():
        if not isinstance(value, dict) or "unit" not in value:
            continue
        for stat, x in value.items():
            if stat == "unit" or not isinstance(x, (int, float)):
                continue
            xs = [s[tag][stat] for s in summaries if isinstance(s.get(tag), dict) and isinstance(s[tag].get(stat), (int, float))]
            n = len(xs)
            mean = statistics.fmean(xs)
            std = statistics.stdev(xs) if n > 1 else 0.0
            se = std / math.sqrt(n) if n > 0 else 0.0
            t = T95.get(n - 1, 1.96)
            metrics["%s_%s" % (tag, stat)] = {
                "mean": mean, "std": std, "min": min(xs), "max": max(xs),
                "cv": (std / mean) if mean else 0.0, "se": se,
                "ci_low": mean - t * se, "ci_high": mean + t * se, "t_critical": t,
                "unit": value["unit"]}
    return metrics


def write_json(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


def aggregate(path, summaries, labels):
    write_json(os.path.join(path, "profile_export_aiperf_aggregate.json"), {
        "metadata": {"aggregation_type": "confidence", "num_profile_runs": len(summaries),
                     "num_successful_runs": len(summaries), "confidence_level": 0.95,
                     "run_labels": labels},
        "metrics": stats_of(summaries, labels)})


def sweep_aggregate(path, param, values, per_value, runs_each):
    combos = []
    for v in values:
        combos.append({"parameters": {param: v},
                       "metrics": stats_of(per_value[v], [])})
    write_json(os.path.join(path, "profile_export_aiperf_sweep.json"), {
        "aggregation_type": "sweep", "num_profile_runs": len(values) * runs_each,
        "num_successful_runs": len(values) * runs_each, "failed_runs": [],
        "metadata": {"sweep_parameters": [{"name": param, "values": values}],
                     "num_combinations": len(values)},
        "per_combination_metrics": combos, "best_configurations": {}, "pareto_optimal": []})


def main():
    opts = parse_args(sys.argv[1:])
    if "config" in opts:
        conf = from_config(opts["config"])
        conf.update({k: v for k, v in opts.items() if k != "config"})
        opts = conf
    synthetic = os.environ.get("BENCHPLAN_STANDIN_AIPERF_SYNTHETIC") == "1"
    data = os.environ.get("BENCHPLAN_STANDIN_AIPERF_DATA")
    if not synthetic and (not data or not os.path.isdir(data)):
        fail("BENCHPLAN_STANDIN_AIPERF_DATA is not a folder: %r" % data, 127)
    runs = {} if synthetic else sources(data)
    base = opts.get("artifact-dir")
    if not base:
        fail("no artifact directory (--artifact-dir or benchmark.artifacts.dir)")
    base = remap(base)
    n = int(opts.get("num-profile-runs", "1"))
    param, raw = ("concurrency", opts["concurrency"]) if "concurrency" in opts else (
        ("request_rate", opts["request-rate"]) if "request-rate" in opts else ("concurrency", "1"))
    values = [int(v) if re.fullmatch(r"\d+", v) else float(v) for v in raw.split(",")]
    sweep = len(values) > 1
    mode = opts.get("parameter-sweep-mode", "repeated")
    grow = int(os.environ.get("BENCHPLAN_STANDIN_AIPERF_RECORDS_BYTES", "0"))
    pause = float(os.environ.get("BENCHPLAN_STANDIN_AIPERF_SECONDS", "0"))
    print("INFO     Starting AIPerf System (stand-in)", flush=True)
    print("INFO     Artifact directory: %s" % base, flush=True)
    if synthetic:
        os.makedirs(base, exist_ok=True)
        with open(os.path.join(base, SYNTHETIC_MARKER), "w", encoding="utf-8") as f:
            f.write(SYNTHETIC_LABEL + "\n")
        print("WARNING  synthetic data: this stand-in generates its numbers, nothing is measured", flush=True)
    per_value = {v: [] for v in values}
    trials = ["run_%04d" % (k + 1) for k in range(n)] if not sweep else ["trial_%04d" % (k + 1) for k in range(n)]

    repeat_sources = [s.strip() for s in os.environ.get("BENCHPLAN_STANDIN_AIPERF_REPEAT_SOURCES", "").split(",")
                      if s.strip()]

    fixed_source = os.environ.get("BENCHPLAN_STANDIN_AIPERF_SOURCE", "").strip() or None

    def measure(v, index, dest, source=None):
        source = fixed_source if source is None else source
        if pause:
            time.sleep(pause)
        if synthetic:
            summary = synthetic_run(dest, int(float(v)), len(per_value[v]),
                                    int(opts.get("request-count", "100")),
                                    int(opts.get("synthetic-input-tokens-mean", "512")),
                                    int(opts.get("output-tokens-mean", "128")),
                                    opts.get("model", opts.get("model-names", "unknown")))
        else:
            summary = write_run(source_for(runs, v if source is None else source, index), dest, grow)
        count = int(summary.get("request_count", {}).get("avg", 0))
        print("Profiling: %d/%d |##########| 100%% [%s=%s] -> %s" % (count, count, param, v, dest), flush=True)
        per_value[v].append(summary)

    if not sweep:
        v = values[0]
        if n == 1:
            measure(v, 0, base)
        else:
            for k in range(n):
                measure(v, 0, os.path.join(base, "profile_runs", trials[k]),
                        repeat_sources[k % len(repeat_sources)] if repeat_sources else None)
            aggregate(os.path.join(base, "aggregate"), per_value[v], trials)
    elif n == 1:
        for i, v in enumerate(values):
            measure(v, i, os.path.join(base, "%s_%s" % (param, v)))
        sweep_aggregate(os.path.join(base, "sweep_aggregate"), param, values, per_value, 1)
    elif mode == "independent":
        for i, v in enumerate(values):
            for k in range(n):
                measure(v, i, os.path.join(base, "%s_%s" % (param, v), "profile_runs", trials[k]))
            aggregate(os.path.join(base, "%s_%s" % (param, v), "aggregate"), per_value[v], trials)
        sweep_aggregate(os.path.join(base, "sweep_aggregate"), param, values, per_value, n)
    else:
        for k in range(n):
            for i, v in enumerate(values):
                measure(v, i, os.path.join(base, "profile_runs", trials[k], "%s_%s" % (param, v)))
        for v in values:
            aggregate(os.path.join(base, "aggregate", "%s_%s" % (param, v)), per_value[v], trials)
        sweep_aggregate(os.path.join(base, "aggregate", "sweep_aggregate"), param, values, per_value, n)
    print("INFO     AIPerf finished: %d run(s) in %s" % (sum(len(s) for s in per_value.values()), base), flush=True)
    sys.exit(int(os.environ.get("BENCHPLAN_STANDIN_AIPERF_EXIT", "0")))


if __name__ == "__main__":
    main()
