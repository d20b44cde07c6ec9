#!/usr/bin/env python3
"""One README table row from a command's --help on stdin: its "Exit codes:" list, joined.
Usage: benchplan CMD --help | docs-captures-exit-codes.py "CMD"
"""
import re
import sys

codes, inside = [], False
for line in sys.stdin.read().splitlines():
    if line.strip() == "Exit codes:":
        inside = True
        continue
    if not inside or not line.strip():
        continue
    m = re.match(r"^\s+(\d)\s+(.*)$", line)
    if m and len(line) - len(line.lstrip()) < 4:
        codes.append([m.group(1), m.group(2).strip()])
    elif codes:
        codes[-1][1] += " " + line.strip()  # a wrapped meaning
if not codes:
    sys.exit(f"benchplan {sys.argv[1]} --help lists no exit codes")
print(f"| `{sys.argv[1]}` | " + "; ".join(f"{c} {m}" for c, m in codes) + " |")
