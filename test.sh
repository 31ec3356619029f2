#!/usr/bin/env bash
# test.sh — the one test command (README "Test"): installs what the browser and clock tests need
# where it is missing, then runs every module's unit and integration tests and the format check:
#
#   ./test.sh                  ./mvnw -B -ntp -T 2 verify
#   ./test.sh -pl core -am     extra arguments go to Maven unchanged
#
# Two modules build at a time (-T 2): on two cores one module's tests mostly wait on its servers and
# child JVMs, and the other's use the idle core. The drills, which are timing-sensitive, start only
# once every other module is done (drills/pom.xml), and run alone.
#
# Besides a JDK 17, ConsoleBrowserIT (examples/demo) needs headless Chromium and its driver at
# /usr/bin/chromium and /usr/bin/chromedriver, and ClockStepDrillIT (drills) needs libfaketime.
# On Debian or Ubuntu they are installed with apt-get (through sudo when not root); elsewhere the
# script says what to install and stops, since those tests fail rather than skip without them.
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(chromium chromium-driver faketime)

missing() {
  [[ -x /usr/bin/chromium ]] || return 0
  [[ -x /usr/bin/chromedriver ]] || return 0
  compgen -G "/usr/lib/*/faketime/libfaketimeMT.so.1" >/dev/null \
    || [[ -e /usr/lib/faketime/libfaketimeMT.so.1 ]] || return 0
  return 1
}

install_missing() {
  local run=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || return 1
    run=(sudo)
  fi
  command -v apt-get >/dev/null || return 1
  "${run[@]}" apt-get update && "${run[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y "${PACKAGES[@]}"
}

if missing; then
  echo "test.sh: installing ${PACKAGES[*]} (headless Chromium, its driver and libfaketime)" >&2
  if ! install_missing || missing; then
    cat >&2 <<EOF
test.sh: could not install what the browser and clock tests need. Install, then run again:
  - headless Chromium at /usr/bin/chromium and its driver at /usr/bin/chromedriver
    (Debian/Ubuntu: apt-get install -y chromium chromium-driver)
  - libfaketime, whose libfaketimeMT.so.1 the clock drill preloads (Debian/Ubuntu: apt-get install
    -y faketime; elsewhere point -Ddrills.libfaketime=PATH at the library)
EOF
    exit 1
  fi
fi

exec ./mvnw -B -ntp -T 2 verify "$@"
