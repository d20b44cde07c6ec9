#!/usr/bin/env python3
"""Writes (--update) or compares (--check) the captures scripts/docs-captures.sh printed.

The capture output holds named parts, each starting with a line "@@capture SECTION:NAME". A page
(README.md, docs/readme/*.md, agent-docs/**/*.md) shows a part as the fenced block right after a
line "<!-- capture SECTION:NAME -->" (or the table right after it; one part may be shown on
several pages); --update replaces that block's body, --check prints a diff of
every block that differs and exits 1. Every part needs a marker and every marker of the sections
captured needs a part, so a renamed or dropped example is an error, not a silent leftover.
Usage: docs-captures-apply.py --update|--check HOME CAPTURE-FILE SECTION...
"""
import difflib
import glob
import os
import re
import sys

MARKER = re.compile(r"^<!-- capture ([a-z-]+):([A-Za-z0-9_.-]+) -->$")


def parts(text):
    out, name, body = {}, None, []
    for line in text.splitlines():
        if line.startswith("@@capture "):
            if name:
                out[name] = body
            name, body = line[len("@@capture "):].strip(), []
            if name in out:
                sys.exit(f"capture {name} printed twice")
        elif name:
            body.append(line)
    if name:
        out[name] = body
    for k, v in out.items():
        while v and not v[-1].strip():
            v.pop()
    return out


def pages(home):
    found = [os.path.join(home, "README.md")]
    found += sorted(glob.glob(os.path.join(home, "docs/readme/*.md")))
    found += sorted(glob.glob(os.path.join(home, "agent-docs/**/*.md"), recursive=True))
    return found


def main():
    mode, home, capture_file, sections = sys.argv[1], sys.argv[2], sys.argv[3], set(sys.argv[4:])
    captured = parts(open(capture_file, encoding="utf-8").read())
    seen, drift = set(), []
    for page in pages(home):
        lines = open(page, encoding="utf-8").read().split("\n")
        changed = False
        i = 0
        while i < len(lines):
            m = MARKER.match(lines[i])
            if not m or m.group(1) not in sections:
                i += 1
                continue
            name = m.group(1) + ":" + m.group(2)
            rel = os.path.relpath(page, home)
            if name not in captured:
                sys.exit(f"{rel}:{i + 1}: marker {name}: the capture script printed no such part")
            seen.add(name)
            if i + 1 < len(lines) and lines[i + 1].startswith("|"):
                # a table: its rows are the capture
                first, end = i + 1, i + 1
                while end < len(lines) and lines[end].startswith("|"):
                    end += 1
            elif i + 1 < len(lines) and lines[i + 1].startswith("```"):
                first, end = i + 2, i + 2
                while end < len(lines) and lines[end] != "```":
                    end += 1
                if end >= len(lines):
                    sys.exit(f"{rel}:{i + 2}: the block after marker {name} is not closed")
            else:
                sys.exit(f"{rel}:{i + 2}: marker {name} must be followed by a fenced block or a table")
            old, new = lines[first:end], captured[name]
            if old != new:
                drift.append("".join(difflib.unified_diff(
                    [l + "\n" for l in old], [l + "\n" for l in new],
                    f"{rel} ({name}, in the page)", f"{name} (captured now)", n=1)))
                lines[first:end] = new
                changed = True
                end = first + len(new)
            i = end
        if changed and mode == "--update":
            with open(page, "w", encoding="utf-8") as f:
                f.write("\n".join(lines))
    unplaced = sorted(set(captured) - seen)
    if unplaced:
        sys.exit("captured but shown on no page (add a marker): " + ", ".join(unplaced))
    if mode == "--check" and drift:
        sys.stdout.write("\n".join(drift))
        sys.exit(f"{len(drift)} capture(s) differ from the pages; "
                 f"regenerate with scripts/docs-captures.sh --update {' '.join(sorted(sections))}")
    if mode == "--update":
        print(f"{len(seen)} capture(s) in place, {len(drift)} updated", file=sys.stderr)


if __name__ == "__main__":
    main()
