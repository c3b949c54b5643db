#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build of the neffbar fuzz targets.  Honours $CC $CXX
# $CFLAGS $CXXFLAGS $LIB_FUZZING_ENGINE $OUT (and $SRC, $WORK).  Runs here too:
# core/tests builds it with clang++-14 and -stdlib=libc++ (ctest label oss-fuzz).
here=$(cd "$(dirname "$0")/../.." && pwd)
work=${WORK:-$(mktemp -d)}
extra=()
# The OSS-Fuzz image has no Boost >= 1.75: the Dockerfile clones Boost.PFR,
# nlohmann-json and CLI11 (for the cli target) next to the sources; use them when
# they are there.
[ -d "${SRC:-/nonexistent}/pfr/include" ] && extra+=("-DNEFFBAR_PFR_INCLUDE=$SRC/pfr/include")
[ -d "${SRC:-/nonexistent}/json/include" ] && extra+=("-DNEFFBAR_JSON_INCLUDE=$SRC/json/include")
[ -d "${SRC:-/nonexistent}/CLI11/include" ] && extra+=("-DNEFFBAR_CLI11_INCLUDE=$SRC/CLI11/include")
cmake -S "$here" -B "$work/neffbar-build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" -DCMAKE_EXE_LINKER_FLAGS="$CXXFLAGS" \
  -DNEFFBAR_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" \
  -DNEFFBAR_TESTS=OFF -DNEFFBAR_PROPS=OFF -DNEFFBAR_BENCH=OFF -DNEFFBAR_CLI=ON "${extra[@]}"
read -ra targets <<< "$(cmake -P "$here/fuzz/targets.cmake")"
cmake --build "$work/neffbar-build" --target "${targets[@]/#/fuzz_}"
mkdir -p "$OUT"
for t in "${targets[@]}"; do
  files="$here/fuzz"  # options and dictionary; the property targets keep theirs in fuzz/properties/
  [[ $t == prop_* ]] && files="$here/fuzz/properties"
  cp "$work/neffbar-build/fuzz/fuzz_$t" "$OUT/"
  cp "$files/$t.options" "$OUT/fuzz_$t.options"
  sed -i "s/^dict = .*/dict = fuzz_$t.dict/" "$OUT/fuzz_$t.options"
  cp "$files/$t.dict" "$OUT/fuzz_$t.dict"
  rm -f "$OUT/fuzz_${t}_seed_corpus.zip"
  (cd "$here/corpus/$t" && zip -q -r "$OUT/fuzz_${t}_seed_corpus.zip" . -x '.*' '*/.*')  # dot-files are not seeds
done
