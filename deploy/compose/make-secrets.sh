#!/usr/bin/env bash
# Creates the secret files docker-compose.yml mounts (deploy/compose/secrets/, git-ignored), each
# a fresh random value, once: an existing file is kept. Prints the admin token to use with the API.
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/secrets"
mkdir -p "$dir"
umask 077
new() { [[ -s "$dir/$1" ]] || head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$dir/$1"; }
new KAIROS_CLUSTER_SECRET
new KAIROS_POSTGRES_PASSWORD
new kairos-admin-token
new kairos-metrics-token
new GRAFANA_ADMIN_PASSWORD
# Nodes get only the SHA-256 of each token; Prometheus gets the METRICS token to scrape with
# (it may read /actuator/prometheus and nothing else).
printf %s "$(cat "$dir/kairos-admin-token")" | sha256sum | cut -d' ' -f1 | tr -d '\n' \
  > "$dir/KAIROS_ADMIN_TOKEN_SHA256"
printf %s "$(cat "$dir/kairos-metrics-token")" | sha256sum | cut -d' ' -f1 | tr -d '\n' \
  > "$dir/KAIROS_METRICS_TOKEN_SHA256"
# Compose mounts secrets read-only, owned by the host user: the containers' users must read them.
chmod 644 "$dir"/*
echo "secrets in $dir; admin token: $(cat "$dir/kairos-admin-token")"
