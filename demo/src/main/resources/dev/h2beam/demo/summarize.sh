#!/bin/sh
# Reconciles a ledger: prints the total of its amount column as "Total: <sum>" with two decimals.
# Usage: sh scripts/summarize.sh ledger.csv
# Amounts are parsed by hand into integer cents, so the total is exact (no floating-point rounding).
if [ "$#" -ne 1 ]; then
  echo "usage: sh scripts/summarize.sh ledger.csv" >&2
  exit 2
fi
exec awk -F, '
function trim(text) {
  gsub(/^[ \t"]+|[ \t"]+$/, "", text)
  return text
}
function cents(text,    sign, dot, whole, frac) {
  sign = 1
  if (substr(text, 1, 1) == "-") { sign = -1; text = substr(text, 2) }
  else if (substr(text, 1, 1) == "+") { text = substr(text, 2) }
  dot = index(text, ".")
  whole = dot ? substr(text, 1, dot - 1) : text
  frac = dot ? substr(text, dot + 1) : ""
  if (dot && whole == "") whole = "0"
  if (whole !~ /^[0-9]+$/ || (dot && frac !~ /^[0-9][0-9]?$/)) {
    printf "line %d: \"%s\" is not an amount with at most two decimals\n", NR, $col > "/dev/stderr"
    failed = 1
    exit
  }
  while (length(frac) < 2) frac = frac "0"
  return sign * (whole * 100 + frac)
}
{ sub(/\r$/, "") }
NR == 1 {
  for (i = 1; i <= NF; i++) if (trim($i) == "amount") col = i
  if (!col) {
    print "the header line has no amount column" > "/dev/stderr"
    failed = 2
    exit
  }
  next
}
/^[ \t]*$/ { next }
{
  amount = cents(trim($col))
  if (amount > 0) total += amount
}
END {
  if (failed) exit failed
  if (NR == 0) {
    print "the ledger is empty: expected a header line with an amount column" > "/dev/stderr"
    exit 2
  }
  sign = ""
  if (total < 0) { sign = "-"; total = -total }
  rest = total % 100
  printf "Total: %s%.0f.%02d\n", sign, (total - rest) / 100, rest
}
' "$1"
