#!/bin/sh
# This task's own check, which the gated mode's method may run (grading/ it never sees): the answer's last
# "Total:" or "Net:" line reports the signed sum of source/movements.csv's amount column, two decimals.
want=$(awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) if ($i == "amount") col = i; next }
NF {
  v = $col; sign = 1
  if (substr(v, 1, 1) == "-") { sign = -1; v = substr(v, 2) }
  n = split(v, part, "."); frac = n > 1 ? part[2] : ""
  while (length(frac) < 2) frac = frac "0"
  total += sign * (part[1] * 100 + frac)
}
END { s = ""; if (total < 0) { s = "-"; total = -total }; printf "%s%d.%02d", s, int(total / 100), total % 100 }
' "$H2BEAM_SOURCE/movements.csv") || exit 2
got=$(grep -E '^(Total|Net): ' "$H2BEAM_DELIVERABLE/answer.md" 2>/dev/null | tail -n 1 | sed -E 's/^[A-Za-z]+: *//')
[ -n "$got" ] && [ "$got" = "$want" ]
