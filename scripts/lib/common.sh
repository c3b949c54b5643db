# shellcheck shell=bash
# What every bash script of scripts/ shares; each sources it first:
#   . "$(dirname "$0")/lib/common.sh"
# It sets strict mode, goes to the repository root, and gives:
#   show_help              the script's header (the comment lines after the shebang), exit 0
#   usage_error MESSAGE    one line "NAME: MESSAGE (--help)" on stderr, exit 2
#   die MESSAGE            one line "NAME: MESSAGE" on stderr, exit 1
#   need_value "$@"        usage_error unless the option in $1 has a value in $2
#   opt_uint VAR OPT VALUE MIN   VAR=VALUE when VALUE is decimal digits >= MIN, else usage_error
#   run_logged NAME CMD... CMD's output into out/logs/NAME.log; on a failure its last
#                          lines on stderr and CMD's exit code returned
# The one way to read options (scripts/README.md):
#   while (($#)); do
#     case "$1" in
#       --seconds) need_value "$@"; opt_uint seconds "$1" "$2" 1; shift 2 ;;
#       -h|--help) show_help ;;
#       *) usage_error "unknown option: $1" ;;
#     esac
#   done
set -euo pipefail
NEFFBAR_SCRIPT=$(cd "$(dirname "$0")" && pwd)/${0##*/}  # absolute: the header is read after the cd
NEFFBAR_PROG=${0##*/}
NEFFBAR_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
NEFFBAR_LOGS=out/logs
cd "$NEFFBAR_ROOT"
# One ccache for every build tree (build/*, mutate's trees under out/): paths under the
# checkout hashed relative to it and the build directory left out of the hash, so a tree
# elsewhere compiles from the others' objects.  A value already set (CI's) is kept.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$NEFFBAR_ROOT} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}

show_help() {
  awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$NEFFBAR_SCRIPT"
  exit 0
}

# A message with its control characters shown as '?', so it stays one line.
_one_line() { local m="$*"; printf '%s' "${m//[^[:print:]]/?}"; }

usage_error() {
  printf '%s: %s (--help)\n' "$NEFFBAR_PROG" "$(_one_line "$@")" >&2
  exit 2
}

die() {
  printf '%s: %s\n' "$NEFFBAR_PROG" "$(_one_line "$@")" >&2
  exit 1
}

need_value() {
  (($# >= 2)) || usage_error "$1 needs a value"
}

opt_uint() {  # at most 18 digits: bash's 64-bit arithmetic cannot overflow on them
  [[ $3 =~ ^[0-9]{1,18}$ ]] && ((10#$3 >= $4)) || usage_error "$2: expected an integer >= $4, got '$3'"
  printf -v "$1" '%d' "$((10#$3))"
}

run_logged() {
  local name=$1 rc=0
  shift
  mkdir -p "$NEFFBAR_LOGS"
  "$@" > "$NEFFBAR_LOGS/$name.log" 2>&1 || rc=$?
  if ((rc)); then
    printf '%s: %s failed (exit %d); the last lines of %s:\n' "$NEFFBAR_PROG" "$name" "$rc" "$NEFFBAR_LOGS/$name.log" >&2
    tail -n "${NEFFBAR_LOG_TAIL:-40}" "$NEFFBAR_LOGS/$name.log" >&2
  fi
  return "$rc"
}
