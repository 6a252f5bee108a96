#!/bin/bash
# Issue 8's bench: the 1M-record file ingested by one worker alone (work.shards=0), by one worker
# in 12 shards (the same work plus the shards' overhead: the cut, a Kafka session and a commit per
# shard, the file's ending), and by two workers sharing the 12 shards. Each measurement is the
# time from the file's rename into the inbox to its arrival in done/, with the workers already up;
# each case runs RUNS times (default 3), alternating, on a fresh topic, and the medians are printed
# with the ratios, and with the overhead per shard.
# Needs: mvn package done. Usage: bench/scripts/shared-workers.sh [WORKDIR]
# KAFKA_PORT (19093), RUNS and JAR (the built ingest-app.jar) may be set.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${1:-$ROOT/bench-data/shared-workers}
JAR=${JAR:-$ROOT/ingest-app/target/ingest-app.jar}
KAFKA_PORT=${KAFKA_PORT:-19093}
RUNS=${RUNS:-3}
SHARDS=12
mkdir -p "$WORK" && cd "$WORK" && rm -rf broker inbox-* ./*.log
[ -f persons-1m.xml ] || java -jar "$ROOT/datagen/target/datagen.jar" --records 1000000 --out persons-1m.xml --seed 42
java -jar "$JAR" broker --port "$KAFKA_PORT" --data "$WORK/broker" > broker.log 2>&1 &
BROKER=$!
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; kill $BROKER 2>/dev/null || true; }
trap cleanup EXIT
until grep -q "$KAFKA_PORT" broker.log; do sleep 0.2; done

# run NAME WORKERS SHARDS: prints the seconds from drop to done/
run() {
  local name=$1 workers=$2 shards=$3 inbox="$WORK/inbox-$1" topic="p-$1" pids=()
  rm -rf "$inbox" && mkdir -p "$inbox"
  for i in $(seq "$workers"); do
    java -XX:+UseParallelGC -Xmx256m -jar "$JAR" worker --inbox "$inbox" --topic "$topic" \
      --bootstrap-servers 127.0.0.1:"$KAFKA_PORT" -s http.port=-1 -s worker.id="$name-$i" \
      -s work.shards="$shards" > "$name-$i.log" 2>&1 &
    pids+=($!); PIDS+=($!)
  done
  for i in $(seq "$workers"); do
    until grep -qE "joined the group|connected to Kafka" "$name-$i.log"; do sleep 0.1; done
  done
  sleep 2 # the group's first assignment settles
  cp persons-1m.xml "$inbox/persons.xml.part"
  local t0; t0=$(date +%s%N)
  mv "$inbox/persons.xml.part" "$inbox/persons.xml"
  until [ -f "$inbox/done/persons.xml" ]; do
    [ -f "$inbox/failed/persons.xml" ] && { echo "failed: see $WORK/$name-*.log" >&2; exit 1; }
    sleep 0.05
  done
  local t1; t1=$(date +%s%N)
  for p in "${pids[@]}"; do kill "$p"; wait "$p" 2>/dev/null || true; done
  echo "scale=2; ($t1 - $t0) / 1000000000" | bc
}

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
ALONE=(); ONE=(); TWO=()
for r in $(seq "$RUNS"); do
  ALONE+=("$(run "alone-$r" 1 0)")
  ONE+=("$(run "one-$r" 1 $SHARDS)")
  TWO+=("$(run "two-$r" 2 $SHARDS)")
  echo "run $r: alone ${ALONE[-1]} s, one worker in $SHARDS shards ${ONE[-1]} s, two workers ${TWO[-1]} s" \
    "(load average $(cut -d' ' -f1-3 /proc/loadavg))"
done
A=$(median "${ALONE[@]}"); O=$(median "${ONE[@]}"); T=$(median "${TWO[@]}")
echo "machine: $(nproc) cores, $(java -version 2>&1 | head -1)"
echo "median of $RUNS, 1,000,000 records ($(du -mL persons-1m.xml | cut -f1) MB), drop to done/:"
echo "  one worker, whole file (work.shards=0): $A s ($(echo "1000000 / $A" | bc) records/s)"
echo "  one worker, $SHARDS shards:               $O s ($(echo "1000000 / $O" | bc) records/s)"
echo "  two workers, $SHARDS shards:              $T s ($(echo "1000000 / $T" | bc) records/s)"
echo "  two workers vs one worker in shards: $(echo "scale=2; $O / $T" | bc)x; vs one worker alone: $(echo "scale=2; $A / $T" | bc)x"
echo "  overhead per shard (one worker, shards vs whole): $(echo "scale=3; ($O - $A) / $SHARDS" | bc) s"
grep -h "cut persons.xml" one-*.log two-*.log | sed 's/^.*cut/  cut/' | head -"$RUNS"
