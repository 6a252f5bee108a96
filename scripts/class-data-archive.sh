#!/bin/bash
# Writes a class-data archive for the worker, so that a worker started with it loads its classes (Kafka's
# clients, JAXB, Woodstox, our own) already parsed and verified from a mapped file instead of from the jar: a
# restarted worker commits its first record sooner (README, Operations). On JDK 17 to 24 it is a dynamic AppCDS
# archive; on a JDK with -XX:AOTCacheOutput (25 and later) an AOT cache, which also holds the classes linked and
# the training run's method profiles, so that less is left to interpret and compile after a restart. The
# archive is made by one training run of the worker, over a small generated file with some invalid records, in
# a temporary directory, against a broker of its own run by the `broker` command in another process (so that
# the archive holds the worker's classes, not a broker's); the run's JVM writes the archive as it exits.
#
# Usage: scripts/class-data-archive.sh ARCHIVE [INGEST_APP_JAR] [DATAGEN_JAR]
# JAVA is the java the worker will run on (java on the PATH if unset); the script ends by printing how to start
# the worker with the archive on it:
#   JDK 17: java -XX:+UnlockDiagnosticVMOptions -XX:ArchiveRelocationMode=0 -XX:SharedArchiveFile=ARCHIVE -jar ...
#   (ArchiveRelocationMode=0 maps the archive where it was made to be mapped, falling back to moving it; some
#   JDK 17 builds move it always, which cost about a tenth of a second here.)
#   JDK 25: java -XX:AOTCache=ARCHIVE -jar ...
# The archive holds only for the same JDK build and the same jar at the same path; given another, the JVM warns
# and runs without it. JAVA_OPTS are added to the training run's java command line, and belong on the worker's
# too: a JDK 25 JVM whose module options (--enable-native-access, say) differ runs without the AOT cache.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 ARCHIVE [INGEST_APP_JAR] [DATAGEN_JAR]" >&2; exit 2; }
ARCHIVE=$(realpath -m "$1")
JAR=$(realpath "${2:-$ROOT/ingest-app/target/ingest-app.jar}")
DATAGEN=$(realpath "${3:-$ROOT/datagen/target/datagen.jar}")
JAVA=${JAVA:-java}
# Asked first, so that a java that does not run is said to be the fault, not the training run.
FLAGS=$("$JAVA" -XX:+PrintFlagsFinal -version 2>&1) || { echo "$JAVA does not run: $FLAGS" >&2; exit 1; }
if grep -q ' AOTCacheOutput ' <<< "$FLAGS"; then
  WRITE=(-XX:AOTCacheOutput="$ARCHIVE")
  USE="-XX:AOTCache=$ARCHIVE"
else
  WRITE=(-XX:ArchiveClassesAtExit="$ARCHIVE")
  USE="-XX:+UnlockDiagnosticVMOptions -XX:ArchiveRelocationMode=0 -XX:SharedArchiveFile=$ARCHIVE"
fi
WORK=$(mktemp -d)
PID=
BROKER=
cleanup() {
  [ -n "$PID" ] && kill -9 "$PID" 2>/dev/null || true
  if [ -n "$BROKER" ] && kill "$BROKER" 2>/dev/null; then
    for _ in $(seq 300); do kill -0 "$BROKER" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$BROKER" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
# Says why, and leaves no archive behind: a JVM that stopped badly may still have written one.
fail() {
  echo "$1; its log:" >&2
  cat "$2" >&2
  rm -f "$ARCHIVE"
  exit 1
}
trap cleanup EXIT
cd "$WORK"
mkdir inbox
java -jar "$DATAGEN" --records 2000 --invalid-rate 0.01 --seed 1 --out sample.xml > datagen.log 2>&1 \
  || fail "datagen could not write the training file" datagen.log
java -jar "$JAR" broker --port 0 --data "$WORK/broker" > broker.out 2> broker.log &
BROKER=$!
for _ in $(seq 600); do
  [ -s broker.out ] && break
  kill -0 "$BROKER" 2>/dev/null || fail "the training broker did not start" broker.log
  sleep 0.1
done
BOOTSTRAP=$(head -1 broker.out)
[ -n "$BOOTSTRAP" ] || fail "the training broker did not start in 60 s" broker.log
rm -f "$ARCHIVE"
# The HTTP endpoints are on, at a free port, so that their classes are in the archive too.
"$JAVA" ${JAVA_OPTS:-} "${WRITE[@]}" -jar "$JAR" worker --inbox inbox --topic class-data-training \
  --bootstrap-servers "$BOOTSTRAP" --http-port 0 -s worker.id=class-data-training > worker.log 2>&1 &
PID=$!
mv sample.xml inbox/sample.xml
for _ in $(seq 1800); do
  [ -f inbox/done/sample.xml ] && break
  if ! kill -0 "$PID" 2>/dev/null || [ -f inbox/failed/sample.xml ]; then
    fail "the training run did not ingest its file" worker.log
  fi
  sleep 0.1
done
[ -f inbox/done/sample.xml ] || fail "the training run did not finish its file in 180 s" worker.log
# A stop on request exits 0, and the JVM writes the archive as it exits.
kill -TERM "$PID"
if ! wait "$PID"; then
  PID=
  fail "the training run did not stop cleanly" worker.log
fi
PID=
[ -s "$ARCHIVE" ] || fail "the training run wrote no archive at $ARCHIVE" worker.log
echo "wrote $ARCHIVE ($(( $(stat -c %s "$ARCHIVE") / 1048576 )) MB); start the worker with:"
echo "  $JAVA ${JAVA_OPTS:+$JAVA_OPTS }$USE -jar $JAR worker ..."
