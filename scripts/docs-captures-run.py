#!/usr/bin/env python3
"""Splits RunClusterIT#cli's transcript into the parts run.md and README.md show: each command
(first, json, unschedulable, again, ls) and the first run's run.json (keys sorted).
Usage: docs-captures-run.py SECTION <target/run-cli-transcript.txt
"""
import json
import sys

NAMES = ["first", "json", "unschedulable", "again", "ls"]
segments = sys.stdin.read().split("\n===\n")  # the test ends each command with a "===" line
record = segments.pop()
if len(segments) != len(NAMES):
    sys.exit(f"the transcript has {len(segments)} commands, expected {len(NAMES)}: " + ", ".join(NAMES))
for name, segment in zip(NAMES, segments):
    print(f"@@capture {sys.argv[1]}:{name}")
    print(segment.rstrip("\n"))
print(f"@@capture {sys.argv[1]}:run-json")
print(json.dumps(json.loads(record), indent=2, sort_keys=True))
