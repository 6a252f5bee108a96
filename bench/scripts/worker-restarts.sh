#!/bin/bash
# Restart after restart, alternating between ways of starting the worker, so that a shared machine's load falls
# on each way alike: the A/B check behind the README's restart figures, quicker than worker-kill-resume.sh and
# with more restarts per way. Each way gets its own inbox and topic on one broker (the `broker` command, in
# its own process) and a copy of the 1M-record file; its worker is killed once it has committed, then, round
# after round, started again, timed from its launch until a read_committed consumer of its topic (kcat, started
# before it at the topic's end) receives its first new record, and killed (SIGKILL) at once. The worker is not
# asked anything while it starts: polling its /metrics, as this script first did, ran a curl process every 20 ms
# on the cores the start-up needs. Prints every restart, with the worker's own start-up line's total, and each
# way's median.
#
# Usage: bench/scripts/worker-restarts.sh ROUNDS 'LABEL|JAR|JAVA|JAVA_OPTS' ...
#   e.g. bench/scripts/worker-restarts.sh 6 \
#     "jdk25|$PWD/ingest-app/target/ingest-app.jar|/usr/lib/jvm/temurin-25-jdk-amd64/bin/java|-XX:AOTCache=/tmp/x.aot" \
#     "jdk17|$PWD/ingest-app/target/ingest-app.jar|java|"
# Needs: mvn package done, kcat. WORKDIR (bench-data/restarts) holds the file and logs.
set -euo pipefail
command -v kcat > /dev/null || { echo "this script needs kcat (apt-get install kcat)" >&2; exit 1; }
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
ROUNDS=$1; shift
WORK=${WORKDIR:-$ROOT/bench-data/restarts}
. "$ROOT/bench/scripts/common.sh"
mkdir -p "$WORK" && cd "$WORK" && rm -rf ways && mkdir ways
[ -f persons-1m.xml ] || java -jar "$ROOT/datagen/target/datagen.jar" --records 1000000 --out persons-1m.xml --seed 42
BROKER="" pid="" consumer=""
# Only what still runs: a pid once stopped or waited for may be another process's by now. TERM first: timeout
# passes it on to its kcat, which a KILL of timeout would leave behind.
trap 'kill $BROKER $pid $consumer 2>/dev/null; sleep 0.5; kill -9 $BROKER $pid $consumer 2>/dev/null || true' EXIT
start_broker "$WORK" "$ROOT/ingest-app/target/ingest-app.jar"
start() { # way jar java opts port log; each way its own worker id, so that a start fences its own predecessor
  "$3" -Xmx256m $4 -jar "$2" worker --inbox "ways/$1/inbox" --topic "restarts-$1" --bootstrap-servers "$BOOT" \
    --http-port "$5" -s "worker.id=restarts-$1" > "$6" 2>&1 & echo $!; }
first_commit() { # pid log: waits at most 60 s for the worker's start-up line, written at its first commit
  for _ in $(seq 600); do
    grep -q 'start-up: first commit' "$2" && return 0
    kill -0 "$1" 2>/dev/null || { echo "the worker stopped; its log:" >&2; cat "$2" >&2; exit 1; }
    sleep 0.1
  done
  echo "no commit in 60 s; the worker's log:" >&2; cat "$2" >&2; exit 1
}
watch() { # way: a read_committed consumer at the end of the way's topic (the last stable offset, past the killed
  # worker's open transaction), which exits at the first record committed after it; fetches wait at most 20 ms
  timeout 60 kcat -C -q -b "$BOOT" -t "restarts-$1" -o end -c 1 -X isolation.level=read_committed \
    -X fetch.wait.max.ms=20 > /dev/null 2>&1 & }
stop() { kill -9 "$1"; while kill -0 "$1" 2>/dev/null; do sleep 0.02; done; }
port() { echo $((18700 + $1)); }
i=0
for way in "$@"; do
  IFS='|' read -r label jar java opts <<< "$way"
  mkdir -p "ways/$label/inbox"
  pid=$(start "$label" "$jar" "$java" "$opts" "$(port $i)" "ways/$label/first.log")
  cp persons-1m.xml "ways/$label/inbox/.persons.part" && mv "ways/$label/inbox/.persons.part" "ways/$label/inbox/persons.xml"
  first_commit "$pid" "ways/$label/first.log"; sleep 1; stop "$pid"; pid=""
  i=$((i + 1))
done
for r in $(seq "$ROUNDS"); do
  i=0
  for way in "$@"; do
    IFS='|' read -r label jar java opts <<< "$way"
    log="ways/$label/restart-$r.log"
    watch "$label"; consumer=$!; sleep 1 # time to find the topic's end
    kill -0 "$consumer" 2>/dev/null || { echo "kcat exited before the launch: a commit of the killed worker came late," \
      "or kcat failed" >&2; exit 1; }
    t0=$(date +%s%N); pid=$(start "$label" "$jar" "$java" "$opts" "$(port $i)" "$log")
    wait "$consumer" || { echo "no new committed record on restarts-$label in 60 s; the worker's log:" >&2; cat "$log" >&2
      exit 1; }
    t1=$(date +%s%N)
    for _ in $(seq 40); do grep -q 'start-up:' "$log" && break; sleep 0.05; done
    consumer=""; stop "$pid"; pid=""
    ms=$(( (t1 - t0) / 1000000 )); echo "$ms" >> "ways/$label/ms"
    echo "$label round $r: $ms ms to the first new committed record (load average $(cut -d' ' -f1 /proc/loadavg));" \
      "$(grep -o 'first commit [0-9.]* s after the JVM.s launch' "$log" || echo 'no start-up line')"
    i=$((i + 1)); sleep 1 # a commit the killed worker asked for just before it died completes meanwhile
  done
done
print_medians restarts "$@"
