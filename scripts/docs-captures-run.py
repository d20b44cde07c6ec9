#!/usr/bin/env python3
"""Splits RunClusterIT#cli's transcript into the parts run.md and README.md show: each command
(first, json, unschedulable, again, ls) and the first run's run.json (keys sorted).
Usage: docs-captures-run.py SECTION <target/run-cli-transcript.txt
"""
import json
import sys

NAMES = ["first", "json", "unschedulable", "again", "ls"]
text = sys.stdin.read()
commands, _, record = text.partition("\n===\n")
part = -1
for line in commands.splitlines():
    if line.startswith("$ "):
        part += 1
        if part >= len(NAMES):
            sys.exit("the transcript has more commands than " + ", ".join(NAMES))
        print(f"@@capture {sys.argv[1]}:{NAMES[part]}")
    print(line)
print(f"@@capture {sys.argv[1]}:run-json")
print(json.dumps(json.loads(record), indent=2, sort_keys=True))
