#!/bin/bash
# Throughput of the exactly-once worker against plain `ingest` on the same 1M-record file and
# broker, alternating, three times each. Usage: bench/scripts/worker-vs-ingest.sh [WORKDIR]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${1:-$ROOT/bench-data/worker-vs-ingest}
JAR=$ROOT/ingest-app/target/ingest-app.jar
mkdir -p "$WORK" && cd "$WORK" && rm -rf broker ./*.log
[ -f persons-1m.xml ] || java -jar "$ROOT/datagen/target/datagen.jar" --records 1000000 --out persons-1m.xml --seed 42
java -jar "$JAR" broker --port 19093 --data "$WORK/broker" > broker.log 2>&1 &
BROKER=$!
trap 'kill $BROKER 2>/dev/null || true' EXIT
until grep -q 19093 broker.log; do sleep 0.2; done
for i in 1 2 3; do
  java -Xmx256m -jar "$JAR" ingest persons-1m.xml --topic plain-$i --bootstrap-servers 127.0.0.1:19093 2>/dev/null \
    | sed "s/^/ingest $i: /" | cut -c1-200
  rm -rf inbox && mkdir inbox
  java -Xmx256m -jar "$JAR" worker --inbox "$WORK/inbox" --topic tx-$i --bootstrap-servers 127.0.0.1:19093 \
    --http-port -1 -s worker.id=t$i > "worker-$i.log" 2>&1 &
  PID=$!
  until grep -q "connected to Kafka" "worker-$i.log"; do sleep 0.1; done
  cp persons-1m.xml inbox/p.xml.part; t1=$(date +%s%N); mv inbox/p.xml.part inbox/p.xml
  until [ -f inbox/done/p.xml ]; do sleep 0.05; done
  echo "worker $i: drop to done/ $(( ($(date +%s%N) - t1) / 1000000 )) ms"
  kill -TERM $PID; wait $PID 2>/dev/null || true
done
