#!/usr/bin/env bash
# From a ClusterFuzzLite finding to a regression ctest replays, on a planted bug
# (planted_crash.cpp: any input containing "BUG" fails an oracle):
#   1. a 300-byte testcase laid out as ClusterFuzzLite's artifact is, unzipped
#      (crashes-fuzz_decode/address/crash-<sha1>), goes through
#      ./scripts/fuzz --reproduce FILE --binary <libFuzzer build> --regressions DIR;
#   2. the target is taken from the name, the input minimised to the 3 bytes that
#      matter, and kept as DIR/decode/<sha1> (no temporary file left beside it);
#   3. the replay build (the one ctest's fuzz_replay_<target> runs, over
#      corpus/<t> and corpus/regressions/<t>) fails on DIR/decode and passes without it;
#   4. an input that does not crash is refused: exit 1, nothing written.
# The checkout is not touched (DIR is a temporary folder).  ctest fuzz_reproduce_loop.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "reproduce loop: FAIL: $*"; exit 1; }
src=$here/fuzz/oss-fuzz/planted_crash.cpp
clang++-14 -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -I"$here/fuzz" "$src" -o "$tmp/fuzz_planted"
g++-12 -std=c++20 -O1 -I"$here/fuzz" "$src" "$here/fuzz/replay_main.cpp" -o "$tmp/replay_planted"

# 1. A ClusterFuzzLite artifact, unzipped into its name: 150 bytes, BUG, 147 bytes.
mkdir -p "$tmp/crashes-fuzz_decode/address"
artifact=$tmp/crashes-fuzz_decode/address/crash-0123456789abcdef
{ head -c 150 /dev/zero | tr '\0' 'a'; printf BUG; head -c 147 /dev/zero | tr '\0' 'z'; } > "$artifact"
"$here/scripts/fuzz" --reproduce "$artifact" --binary "$tmp/fuzz_planted" --regressions "$tmp/regressions" \
  --max-seconds 10 > "$tmp/out.log" 2>&1 || { cat "$tmp/out.log"; fail "--reproduce exited $?"; }
cat "$tmp/out.log"

# 2. Kept, minimised, named by sha1, nothing else in the folder.
mapfile -t kept < <(find "$tmp/regressions" -type f)
((${#kept[@]} == 1)) || fail "expected one kept input, got: ${kept[*]:-none}"
k=${kept[0]}
[ "$(dirname "$k")" = "$tmp/regressions/decode" ] || fail "kept in $(dirname "$k"), not in the target's folder (decode, from the name)"
[ "$(basename "$k")" = "$(sha1sum "$k" | cut -c1-40)" ] || fail "$k is not named by its sha1"
size=$(wc -c < "$k")
((size < 300)) || fail "not minimised: $size bytes"
grep -q BUG "$k" || fail "the kept input lost the bytes that fail"
echo "reproduce loop: kept $(basename "$k"), $size bytes (from 300)"

# 3. The replay build, run as ctest runs fuzz_replay_<target>: fails on the regression folder.
mkdir -p "$tmp/corpus"; printf 'fine' > "$tmp/corpus/seed"
"$tmp/replay_planted" "$tmp/corpus" > /dev/null 2>&1 || fail "the replay build fails without the regression"
if "$tmp/replay_planted" "$tmp/corpus" "$tmp/regressions/decode" > "$tmp/replay.log" 2>&1; then
  fail "the replay build passes on the kept regression"
fi
grep -q "planted: the input contains BUG" "$tmp/replay.log" || fail "the replay failed elsewhere: $(cat "$tmp/replay.log")"
echo "reproduce loop: the replay fails on it: $(grep -m1 'oracle failed' "$tmp/replay.log")"

# 4. An input that does not crash: exit 1, nothing written.
# (The older CIFuzz name, fuzz_<target>-<sanitizer>-..., still gives the target.)
printf 'harmless' > "$tmp/fuzz_decode-address-crash-harmless"
set +e
"$here/scripts/fuzz" --reproduce "$tmp/fuzz_decode-address-crash-harmless" --binary "$tmp/fuzz_planted" \
  --regressions "$tmp/regressions2" > "$tmp/out2.log" 2>&1
rc=$?
set -e
((rc == 1)) || { cat "$tmp/out2.log"; fail "a harmless input gave exit $rc, not 1"; }
[ ! -e "$tmp/regressions2" ] || [ -z "$(find "$tmp/regressions2" -type f)" ] || fail "a harmless input was kept"
echo "reproduce loop: ok (a non-crashing input is refused with exit 1, nothing written)"
