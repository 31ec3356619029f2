#!/usr/bin/env bash
# refresh-images.sh — regenerate the documentation's images from what the tests write under
# target/ (tests never write into docs/ themselves, so a checkout stays clean after ./test.sh).
#
#   docs/refresh-images.sh console               run ConsoleBrowserIT (examples/demo), then copy
#                                                its screenshots to docs/console/
#   docs/refresh-images.sh drills <fault>...     run those drills (drills/drill <fault>...), then
#                                                copy each lateness plot to
#                                                docs/drills/<fault>-lateness.png
#   docs/refresh-images.sh --copy-only console|drills [<fault>...]
#                                                copy what the last run left in target/, run nothing
#
# Options after -- go to Maven, e.g. docs/refresh-images.sh drills random-mix -- -Ddrill.mix.seed=7
# The screenshots come from examples/demo/target/screenshots/, the plots from
# drills/target/drill-reports/<fault>/lateness.png. Review with git diff before committing.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
  exit "${1:-0}"
}

run=true
if [[ "${1:-}" == --copy-only ]]; then
  run=false
  shift
fi
[[ $# -ge 1 ]] || usage 2
what=$1
shift

names=()
while [[ $# -gt 0 && "$1" != "--" ]]; do
  names+=("$1")
  shift
done
[[ "${1:-}" == "--" ]] && shift

case "$what" in
  -h | --help) usage ;;
  console)
    shots=examples/demo/target/screenshots
    if $run; then
      rm -rf "$shots"
      ./mvnw -B -ntp -pl examples/demo -am verify -Dspotless.check.skip=true \
        -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false \
        -Dit.test=ConsoleBrowserIT -Dfailsafe.failIfNoSpecifiedTests=false "$@"
    fi
    compgen -G "$shots/*.png" >/dev/null || {
      echo "refresh-images: no screenshots in $shots (run without --copy-only)" >&2
      exit 1
    }
    cp "$shots"/*.png docs/console/
    echo "copied $(ls "$shots"/*.png | wc -l) screenshots to docs/console/"
    ;;
  drills)
    [[ ${#names[@]} -ge 1 ]] || {
      echo "refresh-images: name the drills (drills/drill list)" >&2
      exit 2
    }
    if $run; then
      drills/drill "${names[@]}" -- "$@"
    fi
    for f in "${names[@]}"; do
      plot=drills/target/drill-reports/$f/lateness.png
      [[ -f "$plot" ]] || {
        echo "refresh-images: no plot at $plot (run without --copy-only)" >&2
        exit 1
      }
      cp "$plot" "docs/drills/$f-lateness.png"
      echo "copied $plot to docs/drills/$f-lateness.png"
    done
    ;;
  *)
    echo "refresh-images: unknown '$what' (console or drills)" >&2
    exit 2
    ;;
esac
