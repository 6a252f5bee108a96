#!/usr/bin/env bash
# Makes Debian's docker-compose (v1) available for the compose file's test: it validates the file
# with `docker-compose config`, which needs no Docker engine. Installs the package when missing.
set -euo pipefail
if command -v docker-compose >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "docker-compose is not installed and this is not root: run 'apt-get install -y docker-compose' as root" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends docker-compose >&2
command -v docker-compose >/dev/null
