#!/bin/bash
# The issue-3 check by hand: a 1M-record file dropped into a running worker that is killed with
# SIGKILL at 20%, 50% and 90% of its bytes, restarted each time; prints how long each restart took
# from the launch of its process until a read_committed consumer of the topic (kcat, started at its end
# before the launch) received the first new record, the worker's own start-up line, and the median of
# the restarts, then counts distinct records and status events with kcat. The restarted worker is not
# polled while it starts (see worker-restarts.sh).
# Needs: mvn package done, kcat. Usage: bench/scripts/worker-kill-resume.sh [WORKDIR]
# KAFKA_PORT (19092), HTTP_PORT (18080) and JAR (the built ingest-app.jar) may be set, so that two
# people on one machine, or two builds, can be measured side by side; WORKER_JAVA_OPTS are added to the
# worker's java command line (a class-data archive, say), and WORKER_JAVA is the java that runs it (java on the
# PATH if unset; another JDK's, for its class-data or AOT cache).
set -euo pipefail
command -v kcat > /dev/null || { echo "this script needs kcat (apt-get install kcat)" >&2; exit 1; }
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${1:-$ROOT/bench-data/kill-resume}
JAR=${JAR:-$ROOT/ingest-app/target/ingest-app.jar}
KAFKA_PORT=${KAFKA_PORT:-19092}
HTTP_PORT=${HTTP_PORT:-18080}
mkdir -p "$WORK" && cd "$WORK" && rm -rf inbox broker ./*.log ./launch-* && mkdir inbox
[ -f persons-1m.xml ] || java -jar "$ROOT/datagen/target/datagen.jar" --records 1000000 --out persons-1m.xml --seed 42
java -jar "$JAR" broker --port $KAFKA_PORT --data "$WORK/broker" > broker.log 2>&1 &
BROKER=$!
PID=
CONSUMER=
trap 'kill -9 $PID 2>/dev/null; kill $CONSUMER $BROKER 2>/dev/null || true' EXIT
until grep -q $KAFKA_PORT broker.log; do sleep 0.2; done
start() { date +%s%N > "launch-$1"; ${WORKER_JAVA:-java} -Xmx256m ${WORKER_JAVA_OPTS:-} -jar "$JAR" worker --inbox "$WORK/inbox" --topic p1m --bootstrap-servers 127.0.0.1:$KAFKA_PORT \
   --http-port $HTTP_PORT -s worker.progress.interval.ms=500 -s worker.id=hand > "worker-$1.log" 2>&1 & echo $!; }
watch() { # a read_committed consumer from the topic's last stable offset, which exits at the first record committed after it
  timeout 120 kcat -C -q -b 127.0.0.1:$KAFKA_PORT -t p1m -o end -c 1 -X isolation.level=read_committed \
    -X fetch.wait.max.ms=20 > /dev/null 2>&1 & }
pct() { (grep -o '[0-9.]*% of' "worker-$1.log" || echo "0% of") | tail -1 | cut -d% -f1; }
PID=$(start 1)
sleep 3; cp persons-1m.xml inbox/persons-1m.xml.part && mv inbox/persons-1m.xml.part inbox/persons-1m.xml
run=1
FIGURES=()
for target in 20 50 90; do
  until [ "$(echo "$(pct $run) >= $target" | bc -l)" = 1 ]; do sleep 0.2; done
  kill -9 "$PID"; echo "run $run killed with SIGKILL at $(pct $run)% of the bytes"
  sleep 1 # a commit the killed worker asked for just before it died completes meanwhile, before the consumer starts
  watch; CONSUMER=$!; sleep 1 # time to find the topic's end
  kill -0 "$CONSUMER" 2>/dev/null || { echo "kcat exited before the launch: a commit of the killed worker came late," \
    "or kcat failed" >&2; exit 1; }
  run=$((run+1)); PID=$(start $run)
  wait "$CONSUMER" || { echo "no new committed record in 120 s; the worker's log:" >&2; cat "worker-$run.log" >&2; exit 1; }
  ms=$(( ($(date +%s%N) - $(cat "launch-$run")) / 1000000 )); FIGURES+=("$ms")
  for _ in $(seq 40); do grep -q 'start-up:' "worker-$run.log" && break; sleep 0.05; done # older builds lack it
  echo "run $run: first new record committed $ms ms after launch (load average $(cut -d' ' -f1-3 /proc/loadavg));" \
    "$(grep -o 'resuming.*' "worker-$run.log" | head -1)"
  echo "  $(grep -o 'start-up:.*' "worker-$run.log" || true)"
done
echo "restart to first new committed record, ms: ${FIGURES[*]}; median $(printf '%s\n' "${FIGURES[@]}" | sort -n | sed -n "$(( (${#FIGURES[@]} + 1) / 2 ))p")"
until [ -f inbox/done/persons-1m.xml ]; do sleep 0.5; done
kill -TERM "$PID"; wait "$PID" 2>/dev/null || true
echo "distinct record indexes, read_committed: $(kcat -b 127.0.0.1:$KAFKA_PORT -C -t p1m -e -q -X isolation.level=read_committed \
  -f '%h\n' | grep -o 'xmlingest.record.index=[0-9]*' | sort -u | wc -l)"
echo "messages on the record topic: $(kcat -b 127.0.0.1:$KAFKA_PORT -C -t p1m -e -q -X isolation.level=read_committed -f '%k\n' | wc -l)"
echo "status events:"; kcat -b 127.0.0.1:$KAFKA_PORT -C -t p1m.status -e -q -X isolation.level=read_committed -f '%s\n' | cut -c1-60
