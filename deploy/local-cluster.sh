#!/usr/bin/env bash
# A local multi-process Kairos cluster without Docker (docs/operations.md, "Local cluster"):
#
#   deploy/local-cluster.sh up --nodes 3 --executors 2   # infrastructure JVM + 3 nodes + 2 executors
#   deploy/local-cluster.sh status                       # which processes are up, health, leader
#   deploy/local-cluster.sh drain node-2                 # hand node-2's wheel over, then it exits
#   deploy/local-cluster.sh down                         # stops everything, no process left
#
# Run from anywhere; paths default to this checkout. Needs a JDK 17 and a built checkout
# (./mvnw -B -q -DskipTests install). Logs and pid files: target/local-cluster/ (--dir to change).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="$root/cluster-cli/target"
if [[ ! -f "$cli/classpath.txt" || ! -d "$cli/classes" ]]; then
  echo "cluster-cli is not built: run ./mvnw -B -q -DskipTests install in $root first" >&2
  exit 1
fi
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
cd "$root"
# The CLI's classpath is also the infrastructure JVM's (it starts that JVM with its own classpath).
exec "$java" -Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
  -Dlogback.configurationFile="$root/deploy/local-cluster/logback.xml" \
  -Drmq.logback.configurationFile="$root/deploy/local-cluster/rmq-logback.xml" \
  -cp "$cli/classes:$(cat "$cli/classpath.txt")" \
  dev.kairos.cluster.cli.LocalClusterCli "$@"
