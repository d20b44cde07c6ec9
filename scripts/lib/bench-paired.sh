#!/usr/bin/env bash
# Sourced by scripts/bench-cli.sh and scripts/bench-analyze.sh: their paired comparison.
#
# FILE holds one call per line: COMMAND BUILD WALL_S CPU_S, BUILD being this or baseline.
# paired: the i-th call of a command with this build against the i-th with the baseline (the two
# ran back to back): medians of each build and the median of the paired differences, as a share of
# the baseline's time (positive: this build is faster)
paired() {
  awk '
    { k = $1 SUBSEP $2; n[k]++; w[k, n[k]] = $3; c[k, n[k]] = $4; cmds[$1] = 1 }
    function med(a, k, m,   i, j, t, v) { for (i = 1; i <= m; i++) v[i] = a[k, i]
      for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
      return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2 }
    END {
      printf "%-24s %5s %16s %16s %14s %14s\n", "command", "pairs", "wall this/base", "CPU this/base", "wall paired", "CPU paired"
      for (cmd in cmds) { t = cmd SUBSEP "this"; b = cmd SUBSEP "baseline"; m = n[t] < n[b] ? n[t] : n[b]
        if (m == 0) continue
        for (i = 1; i <= m; i++) { dw["x", i] = (w[b, i] - w[t, i]) / w[b, i] * 100; dc["x", i] = (c[b, i] - c[t, i]) / c[b, i] * 100 }
        printf "%-24s %5d %7.3f/%-8.3f %7.2f/%-8.2f %+13.0f%% %+13.0f%%\n", cmd, m, med(w, t, m), med(w, b, m), med(c, t, m), med(c, b, m), med(dw, "x", m), med(dc, "x", m) }
    }' "$1" | { read -r header; echo "$header"; sort; }
}
