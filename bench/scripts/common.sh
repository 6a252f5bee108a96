# Sourced by the bench scripts that start a broker of their own and print medians.

# start_broker WORKDIR JAR: runs the `broker` command over WORKDIR/broker on a free port, in the background,
# and sets BROKER (its pid) and BOOT (its address) once it is up. Set an EXIT trap killing $BROKER first.
start_broker() {
  # A stale broker.out, read before the new broker's shell truncated it, named a dead broker.
  rm -rf "$1/broker" "$1/broker.out"
  java -jar "$2" broker --port 0 --data "$1/broker" > "$1/broker.out" 2> "$1/broker.log" &
  BROKER=$!
  for _ in $(seq 600); do
    [ -s "$1/broker.out" ] && break
    kill -0 "$BROKER" 2>/dev/null || { cat "$1/broker.log" >&2; exit 1; }
    sleep 0.1
  done
  BOOT=$(head -1 "$1/broker.out")
  [ -n "$BOOT" ] || { echo "the broker did not start in 60 s" >&2; cat "$1/broker.log" >&2; exit 1; }
}

# median N...: the middle value, or the mean of the two in the middle.
median() {
  printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR % 2 ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2)}'
}

# print_medians WHAT 'LABEL|...' ...: each way's median of the figures in ways/LABEL/ms, one a line.
print_medians() {
  local what=$1 way label; shift
  for way in "$@"; do
    label=${way%%|*}
    echo "$label: median $(median $(cat "ways/$label/ms")) ms of $(wc -l < "ways/$label/ms") $what"
  done
}
