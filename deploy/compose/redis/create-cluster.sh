#!/bin/sh
# Forms the Redis Cluster of docker-compose.yml once: 3 masters + 3 replicas over redis-1..6.
# Idempotent: a cluster already formed (its nodes.conf survives on the volumes) is left alone.
set -eu
if redis-cli -h redis-1 cluster info | grep -q 'cluster_state:ok'; then
  echo "redis cluster already formed"
  exit 0
fi
addresses=""
for host in redis-1 redis-2 redis-3 redis-4 redis-5 redis-6; do
  addresses="$addresses $(getent hosts "$host" | awk '{print $1}'):6379"
done
# shellcheck disable=SC2086 # one argument per address
redis-cli --cluster create $addresses --cluster-replicas 1 --cluster-yes
# Every node must agree before a Kairos node starts (a seed that still says "fail" refuses slots).
for host in redis-1 redis-2 redis-3 redis-4 redis-5 redis-6; do
  tries=0
  until redis-cli -h "$host" cluster info | grep -q 'cluster_state:ok'; do
    tries=$((tries + 1))
    [ "$tries" -le 60 ] || { echo "$host never reported cluster_state:ok" >&2; exit 1; }
    sleep 1
  done
done
echo "redis cluster formed"
