#!/bin/bash
# Restart after restart, alternating between ways of starting the worker, so that a shared machine's load falls
# on each way alike: the A/B check behind the README's restart figures, quicker than worker-kill-resume.sh and
# with more restarts per way. Each way gets its own inbox and topic on one broker (the `broker` command, in
# its own process) and a copy of the 1M-record file; its worker is killed once it has committed, then, round
# after round, started again, timed from its launch to its first new committed record in /metrics, and killed
# (SIGKILL) at once. Prints every restart, with the worker's own start-up line's total, and each way's median.
#
# Usage: bench/scripts/worker-restarts.sh ROUNDS 'LABEL|JAR|JAVA|JAVA_OPTS' ...
#   e.g. bench/scripts/worker-restarts.sh 6 \
#     "jdk25|$PWD/ingest-app/target/ingest-app.jar|/usr/lib/jvm/temurin-25-jdk-amd64/bin/java|-XX:AOTCache=/tmp/x.aot" \
#     "jdk17|$PWD/ingest-app/target/ingest-app.jar|java|"
# Needs: mvn package done, curl. WORKDIR (bench-data/restarts) holds the file and logs.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
ROUNDS=$1; shift
WORK=${WORKDIR:-$ROOT/bench-data/restarts}
mkdir -p "$WORK" && cd "$WORK" && rm -rf broker ways && mkdir ways
[ -f persons-1m.xml ] || java -jar "$ROOT/datagen/target/datagen.jar" --records 1000000 --out persons-1m.xml --seed 42
java -jar "$ROOT/ingest-app/target/ingest-app.jar" broker --port 0 --data "$WORK/broker" > broker.out 2> broker.log &
PIDS=($!)
trap 'kill -9 "${PIDS[@]}" 2>/dev/null || true' EXIT
until [ -s broker.out ]; do sleep 0.2; done
BOOT=$(head -1 broker.out)
start() { # way jar java opts port log
  $3 -Xmx256m $4 -jar "$2" worker --inbox "ways/$1/inbox" --topic "restarts-$1" --bootstrap-servers "$BOOT" \
    --http-port "$5" -s worker.id=restarts > "$6" 2>&1 & echo $!; }
committed() { until curl -s "localhost:$1/metrics" 2>/dev/null | grep -q '^xmlingest_records_total [1-9]'; do sleep 0.02; done; }
port() { echo $((18700 + $1)); }
i=0
for way in "$@"; do
  IFS='|' read -r label jar java opts <<< "$way"
  mkdir -p "ways/$label/inbox"
  pid=$(start "$label" "$jar" "$java" "$opts" "$(port $i)" "ways/$label/first.log"); PIDS+=("$pid")
  cp persons-1m.xml "ways/$label/inbox/.persons.part" && mv "ways/$label/inbox/.persons.part" "ways/$label/inbox/persons.xml"
  committed "$(port $i)"; sleep 1; kill -9 "$pid"; wait "$pid" 2>/dev/null || true
  i=$((i + 1))
done
for r in $(seq "$ROUNDS"); do
  i=0
  for way in "$@"; do
    IFS='|' read -r label jar java opts <<< "$way"
    log="ways/$label/restart-$r.log"
    t0=$(date +%s%N); pid=$(start "$label" "$jar" "$java" "$opts" "$(port $i)" "$log"); PIDS+=("$pid")
    committed "$(port $i)"; t1=$(date +%s%N)
    for _ in $(seq 40); do grep -q 'start-up:' "$log" && break; sleep 0.05; done
    kill -9 "$pid"; wait "$pid" 2>/dev/null || true
    ms=$(( (t1 - t0) / 1000000 )); echo "$ms" >> "ways/$label/ms"
    echo "$label round $r: $ms ms to the first new committed record (load average $(cut -d' ' -f1 /proc/loadavg));" \
      "$(grep -o 'first commit [0-9.]* s after the JVM.s launch' "$log" || echo 'no start-up line')"
    i=$((i + 1)); sleep 1
  done
done
for way in "$@"; do
  label=${way%%|*}
  echo "$label: median $(sort -n "ways/$label/ms" | awk '{v[NR]=$1} END {print (NR % 2 ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2)}') ms of $(wc -l < "ways/$label/ms") restarts"
done
