#!/bin/bash
# Many small files at once: how long a worker takes to ingest FILES files of RECORDS persons each, all moved into its
# inbox together, timed from the move until the last of them is in done/. Ways (a label and a worker jar, to compare
# builds) take turns, round after round, so that a shared machine's load falls on each alike; each run has a fresh
# inbox, topic and worker on one broker (the `broker` command, in its own process). Made for the per-file costs that
# a 1M-record file hides: claiming, identifying, the commit and the report of every file. Each run's line ends with
# the worker's phase counters (/metrics) over the files: identify, checkpoints and publish (the commits) are the
# worker thread's, scan, bind and serialize the reading thread's, which overlap them.
#
# Usage: bench/scripts/inbox-many-files.sh ROUNDS FILES RECORDS 'LABEL|JAR' ...
#   e.g. bench/scripts/inbox-many-files.sh 2 1000 1000 "new|$PWD/ingest-app/target/ingest-app.jar" "old|/tmp/old.jar"
# Needs: mvn package done. WORKDIR (bench-data/many-files) holds the files and logs.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
ROUNDS=$1 FILES=$2 RECORDS=$3; shift 3
WORK=${WORKDIR:-$ROOT/bench-data/many-files}
. "$ROOT/bench/scripts/common.sh"
mkdir -p "$WORK" && cd "$WORK" && rm -rf runs ways && mkdir runs
POOL="pool-$FILES-$RECORDS"
if [ ! -f "$POOL/done" ]; then
  rm -rf "$POOL" && mkdir "$POOL"
  java -jar "$ROOT/datagen/target/datagen.jar" --records "$RECORDS" --out "$POOL/one.xml" --seed 42
  # Each file its own content: a content seen before is not ingested again. The sample's ids are xs:long.
  for i in $(seq "$FILES"); do sed "s/id=\"\([0-9]*\)\"/id=\"${i}00\1\"/" "$POOL/one.xml" > "$POOL/f$i.xml"; done
  rm "$POOL/one.xml" && touch "$POOL/done"
fi
BROKER="" pid=""
# Only the broker and the worker still running: a worker's pid, once waited for, may be another process's by now.
trap 'kill $BROKER $pid 2>/dev/null; sleep 0.5; kill -9 $BROKER $pid 2>/dev/null || true' EXIT
start_broker "$WORK" "$ROOT/ingest-app/target/ingest-app.jar"
for r in $(seq "$ROUNDS"); do
  for way in "$@"; do
    IFS='|' read -r label jar <<< "$way"
    run="runs/$label-$r"; mkdir -p "$run/inbox" "$run/stage" "ways/$label"
    # Hard links: the files are read, never written, by the worker; moving them in moves only names.
    for i in $(seq "$FILES"); do ln "$POOL/f$i.xml" "$run/stage/f$i.xml"; done
    java -XX:+UseParallelGC -Xmx256m -jar "$jar" worker --inbox "$run/inbox" --topic "many-$label-$r" \
      --bootstrap-servers "$BOOT" --http-port 0 -s "worker.id=many-$label-$r" > "$run/worker.log" 2>&1 &
    pid=$!
    for _ in $(seq 600); do grep -q 'connected to Kafka' "$run/worker.log" && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    grep -q 'connected to Kafka' "$run/worker.log" || { echo "the worker did not connect:" >&2; cat "$run/worker.log" >&2; exit 1; }
    t0=$(date +%s%N)
    find "$run/stage" -name '*.xml' -exec mv -t "$run/inbox" {} +
    until [ "$(find "$run/inbox/done" -name '*.xml' | wc -l)" -ge "$FILES" ]; do
      kill -0 "$pid" 2>/dev/null || { echo "the worker stopped:" >&2; tail -20 "$run/worker.log" >&2; exit 1; }
      [ -z "$(ls -A "$run/inbox/failed")" ] || { echo "a file failed: $(ls "$run/inbox/failed")" >&2; exit 1; }
      sleep 0.1
    done
    t1=$(date +%s%N)
    # Where a file's time went, from the worker's own counters (a build without /metrics, or without a phase, shows -).
    url=$(grep -o 'health at http://[^ ]*/health' "$run/worker.log" | head -1 | sed 's/^health at //; s/health$/metrics/')
    metrics=$( [ -n "$url" ] && curl -fs "$url" || true)
    phases=""
    for phase in identify checkpoints scan bind serialize publish; do
      secs=$(awk -v p="xmlingest_phase_seconds_total{phase=\"$phase\"}" '$1 == p {print $2}' <<< "$metrics")
      phases="$phases $phase $( [ -n "$secs" ] && awk -v s="$secs" -v n="$FILES" 'BEGIN {printf "%.1f", s * 1000 / n}' || echo -)"
    done
    kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
    ms=$(( (t1 - t0) / 1000000 )); echo "$ms" >> "ways/$label/ms"
    echo "$label round $r: $FILES files of $RECORDS records in $ms ms, $(( FILES * RECORDS * 1000 / ms )) records/s," \
      "$(( ms / FILES )) ms a file (load average $(cut -d' ' -f1 /proc/loadavg)); ms a file by phase:$phases"
    rm -rf "$run/inbox" "$run/stage"
  done
done
print_medians runs "$@"
