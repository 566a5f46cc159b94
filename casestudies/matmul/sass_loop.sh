#!/bin/sh
# The main loop of every kernel of a CUDA binary, from its disassembly: the
# loop (backward branch) holding the most FFMA, its instruction count, FFMA
# and LDS.128 among them, its share of FFMA, and the issue cycles the
# compiler's control codes ask for (the stall count, bits 41-44 of each
# instruction's second word): a loop that needs no more cycles than it has
# instructions never makes a warp wait on a fixed latency. Static counts
# for one pass of the loop (one tile of K), not executed counts.
# usage: sass_loop.sh BINARY   (needs cuobjdump and gawk)
set -eu
cuobjdump -sass "$1" | gawk '
function flush(   i, j, c, lo, hi, best, n_ins, n_ffma, n_lds, cycles) {
  if (!fn) return
  best = -1
  for (i = 1; i <= nb; i++) {
    c = 0
    for (j = 1; j <= n; j++) if (addr[j] >= bt[i] && addr[j] <= be[i] && op[j] == "FFMA") c++
    if (c > best) { best = c; lo = bt[i]; hi = be[i] }
  }
  if (best > 0) {
    for (j = 1; j <= n; j++) if (addr[j] >= lo && addr[j] <= hi) {
      n_ins++; cycles += stall[j]
      if (op[j] == "FFMA") n_ffma++
      if (text[j] ~ /^LDS(\.U)?\.128/) n_lds++
    }
    printf "| %s | %d | %d | %d | %d | %.1f | %d |\n", fn, n_ins, n_ffma, n_lds, n_ins - n_ffma - n_lds, 100 * n_ffma / n_ins, cycles
  }
  n = 0; nb = 0
}
BEGIN {
  print "| kernel | loop instructions | FFMA | LDS.128 | other | % FFMA | stall cycles |"
  print "|---|---:|---:|---:|---:|---:|---:|"
}
/Function :/ { flush(); fn = $3; next }
/^ +\/\*[0-9a-f]+\*\// {
  match($0, /\/\*[0-9a-f]+\*\//); a = strtonum("0x" substr($0, RSTART + 2, RLENGTH - 4))
  s = substr($0, RSTART + RLENGTH); sub(/ *\/\*.*$/, "", s); sub(/^ +/, "", s); sub(/^@!?U?P[0-9T] +/, "", s)
  addr[++n] = a; text[n] = s; o = s; sub(/[ .].*/, "", o); op[n] = o; pending = n
  if (o == "BRA" && match(s, /0x[0-9a-f]+/)) { t = strtonum(substr(s, RSTART, RLENGTH)); if (t < a) { bt[++nb] = t; be[nb] = a } }
  next
}
pending && /^ +\/\* 0x[0-9a-f]+ \*\// {
  match($0, /0x[0-9a-f]+/); stall[pending] = int(strtonum(substr($0, RSTART, RLENGTH)) / 2^41) % 16; pending = 0
}
END { flush() }'
