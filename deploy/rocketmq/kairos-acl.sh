#!/usr/bin/env bash
# Least-privilege RocketMQ 5 ACL 2.0 users for Kairos (docs/security.md, "RocketMQ ACL").
#
#   kairos-acl.sh node <user>            the scheduler nodes' user (one for all nodes)
#   kairos-acl.sh executor <app> <user>  the user of one app's executors (one per app)
#
# The user's password is read from the environment variable KAIROS_ACL_PASSWORD, never from the
# command line of this script (mqadmin itself takes it as an argument: run this on a trusted host).
# Environment:
#   MQADMIN         mqadmin to run (default: mqadmin on the PATH)
#   NAMESRV         NameServer address(es) for mqadmin -n (default: 127.0.0.1:9876)
#   CLUSTER         broker cluster; users and ACLs are created on every broker of it
#                   (default: DefaultCluster)
# mqadmin signs its requests as the broker's super user: put that user's accessKey / secretKey in
# $ROCKETMQ_HOME/conf/tools.yml (RocketMQ's own convention).
#
# The grants are exactly dev.kairos.mq.route.KairosAcl's (KairosAclTest checks this file against
# it; RocketMqAclIT proves them on a broker with ACL on). Running it again updates the grants.
set -euo pipefail

MQADMIN="${MQADMIN:-mqadmin}"
NAMESRV="${NAMESRV:-127.0.0.1:9876}"
CLUSTER="${CLUSTER:-DefaultCluster}"

usage() {
  sed -n '2,6p' "$0" >&2
  exit 2
}

create_user() {
  local user="$1"
  if [[ -z "${KAIROS_ACL_PASSWORD:-}" ]]; then
    echo "KAIROS_ACL_PASSWORD must hold the password of user $user" >&2
    exit 2
  fi
  # createUser fails for an existing user: update its password then.
  "$MQADMIN" createUser -n "$NAMESRV" -c "$CLUSTER" -u "$user" -p "$KAIROS_ACL_PASSWORD" -t Normal \
    || "$MQADMIN" updateUser -n "$NAMESRV" -c "$CLUSTER" -u "$user" -p "$KAIROS_ACL_PASSWORD"
}

# grant <user> <resources> <actions>: Allow, from any source address.
grant() {
  "$MQADMIN" createAcl -n "$NAMESRV" -c "$CLUSTER" -s "User:$1" -r "$2" -a "$3" -d Allow
}

node_user() {
  local user="$1"
  create_user "$user"
  # Triggers to every handler topic, and creating them (and kairos_results, which nodes create).
  grant "$user" "Topic:kairos_*" "Pub,Create"
  # The results, in the nodes' consumer group.
  grant "$user" "Topic:kairos_results,Group:kairos_results_nodes" "Sub"
}

executor_user() {
  local app="$1" user="$2"
  # For such a name kairos_<app>_ prefixes exactly the app's handler topics (TopicNames).
  if [[ ! "$app" =~ ^[a-zA-Z0-9-]{1,53}$ ]]; then
    echo "app '$app' is not [a-zA-Z0-9-]{1,53}: grant its topics one by one (docs/security.md)" >&2
    exit 2
  fi
  create_user "$user"
  # Its own handler topics: consume, and create them (kairos.executor.create-topics).
  grant "$user" "Topic:kairos_${app}_*" "Sub,Create"
  # Its own consumer group only.
  grant "$user" "Group:kairos_exec_${app}" "Sub"
  # Results.
  grant "$user" "Topic:kairos_results" "Pub"
}

case "${1:-}" in
  node) [[ $# -eq 2 ]] || usage; node_user "$2" ;;
  executor) [[ $# -eq 3 ]] || usage; executor_user "$2" "$3" ;;
  *) usage ;;
esac
