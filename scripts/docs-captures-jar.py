#!/usr/bin/env python3
"""Copies the built jar with its recorded commit set to "docs".

A plan records the commit benchplan was built from (benchplan-version.properties), so its SHA-256
and plan id would change with every commit, and so would every captured example that shows them.
Usage: docs-captures-jar.py JAR COPY
"""
import sys
import zipfile

NAME = "benchplan-version.properties"
src, dst = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
    for item in zin.infolist():
        data = zin.read(item.filename)
        if item.filename == NAME:
            lines = [l for l in data.decode().splitlines() if not l.startswith("commit=")]
            data = ("\n".join(lines + ["commit=docs"]) + "\n").encode()
        zout.writestr(item, data)
