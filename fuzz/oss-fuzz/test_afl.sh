#!/usr/bin/env bash
# Builds every fuzz target with AFL++ through fuzz/oss-fuzz/build.sh, the way OSS-Fuzz's
# afl engine does (afl-clang-fast / afl-clang-fast++ and AFL++'s libFuzzer-compatible
# driver libAFLDriver.a as $LIB_FUZZING_ENGINE), then runs each under afl-fuzz for a
# few seconds from its seed corpus and checks that it executed inputs and found no
# crash.  ctest afl_build_and_run (label afl).  Long runs belong to ./scripts/fuzz.
#   fuzz/oss-fuzz/test_afl.sh [SECONDS_PER_TARGET]   (default 4)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-4}
command -v afl-clang-fast++ > /dev/null || { echo "afl-clang-fast++ missing (Debian afl++; ./scripts/deps installs it)"; exit 1; }
driver=/usr/lib/afl/libAFLDriver.a
[ -f "$driver" ] || { echo "$driver missing (Debian afl++)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CC=afl-clang-fast CXX=afl-clang-fast++ CFLAGS="-O1" CXXFLAGS="-O1" LIB_FUZZING_ENGINE="$driver"
export OUT="$tmp/out" WORK="$tmp/work" SRC="$tmp/src" AFL_QUIET=1
mkdir -p "$OUT" "$WORK" "$SRC"
"$here/fuzz/oss-fuzz/build.sh" > "$tmp/build.log" 2>&1 || { tail -40 "$tmp/build.log"; exit 1; }

# afl-fuzz refuses to start on machines not tuned for it unless told these are known.
export AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1
read -ra targets <<< "$(cmake -P "$here/fuzz/targets.cmake")"
for t in "${targets[@]}"; do
  [ -x "$OUT/fuzz_$t" ] || { echo "afl: $OUT/fuzz_$t was not built"; exit 1; }
  seeds="$tmp/seeds-$t"
  mkdir -p "$seeds"
  (cd "$seeds" && unzip -q "$OUT/fuzz_${t}_seed_corpus.zip")
  # The first 8 seeds (by name) keep afl-fuzz's dry run short.
  find "$seeds" -type f | sort | tail -n +9 | xargs -r rm -f
  dict=()
  [ -s "$OUT/fuzz_$t.dict" ] && dict=(-x "$OUT/fuzz_$t.dict")
  afl-fuzz -i "$seeds" -o "$tmp/afl-$t" -V "$seconds" -t 10000 "${dict[@]}" -- "$OUT/fuzz_$t" \
    > "$tmp/afl-$t.log" 2>&1 || { tail -30 "$tmp/afl-$t.log"; echo "afl: afl-fuzz failed on fuzz_$t"; exit 1; }
  stats="$tmp/afl-$t/default/fuzzer_stats"
  [ -f "$stats" ] || { tail -30 "$tmp/afl-$t.log"; echo "afl: no fuzzer_stats for fuzz_$t"; exit 1; }
  execs=$(sed -n 's/^execs_done *: *//p' "$stats")
  crashes=$(sed -n 's/^saved_crashes *: *//p' "$stats")
  echo "afl: fuzz_$t: ${execs} execs in ${seconds} s, ${crashes:-?} crashes"
  ((execs > 0)) || { echo "afl: fuzz_$t executed nothing"; exit 1; }
  [ "${crashes:-0}" = 0 ] || { ls "$tmp/afl-$t/default/crashes"; echo "afl: fuzz_$t crashed"; exit 1; }
done
echo "afl: ${#targets[@]} targets built with AFL++ through build.sh and run"
