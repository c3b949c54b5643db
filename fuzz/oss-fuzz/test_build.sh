#!/usr/bin/env bash
# Runs fuzz/oss-fuzz/build.sh the way OSS-Fuzz does, here: clang++-14 with libc++
# (Debian's libc++-14-dev) and libFuzzer, then checks $OUT and runs each target on its
# seed corpus.  ctest label oss-fuzz.  The ASan build enters the way the image does:
# $SRC/build.sh is the file .clusterfuzzlite/Dockerfile copies there, run from
# $SRC/neffbar (the sources), so a build.sh that finds the sources from its own path
# fails here as it would in ClusterFuzzLite.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CC=clang-14 CXX=clang++-14 SRC="$tmp/src"
# Through ccache where it is installed (CMake reads these variables from the environment;
# ccache's lookup hashes the compiler, the flags and the preprocessed source, so a hit is
# the object this build would make).  The image's layout lives in a new $tmp each run:
# ccache rewrites the paths under it relative to the build folder (base_dir) and leaves
# the folder out of the hash of objects with debug info (hash_dir), so a rerun hits
# instead of missing on every object.
if command -v ccache > /dev/null; then
  export CMAKE_C_COMPILER_LAUNCHER=${CMAKE_C_COMPILER_LAUNCHER-ccache} CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER-ccache}
  export CCACHE_BASEDIR="$tmp" CCACHE_NOHASHDIR=1
fi
read -ra targets <<< "$(cmake -P "$here/fuzz/targets.cmake")"
mkdir -p "$SRC"

# The image's layout: the sources at $SRC/neffbar, the Dockerfile's `COPY <file> $SRC/`
# as $SRC/build.sh.
# shellcheck disable=SC2016  # $SRC is the Dockerfile's text here
entry=$(sed -n 's|^COPY \([^ ]*\) \$SRC/$|\1|p' "$here/.clusterfuzzlite/Dockerfile")
[ -f "$here/$entry" ] || { echo ".clusterfuzzlite/Dockerfile copies no build script to \$SRC/ (got '$entry')"; exit 1; }
ln -s "$here" "$SRC/neffbar"
cp "$here/$entry" "$SRC/build.sh"

# The image's header-only dependencies: $SRC/pfr, $SRC/json and $SRC/CLI11, cloned at the
# tags the Dockerfile pins.  Their headers are byte-identical to Debian's packages at the
# same versions, so the same layout is made here from those, after checking that each
# package is the version pinned; build.sh then takes the path the image takes.
pin() { sed -n "s/^ARG .*\b$1_TAG=\([^ ]*\).*/\1/p" "$here/.clusterfuzzlite/Dockerfile"; }
pfr_tag=$(pin PFR) json_tag=$(pin JSON) cli11_tag=$(pin CLI11)
boost=$(sed -n 's/^#define BOOST_VERSION \([0-9]*\)/\1/p' /usr/include/boost/version.hpp)
json=$(sed -n 's/^#define NLOHMANN_JSON_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' /usr/include/nlohmann/detail/abi_macros.hpp | paste -sd.)
cli11=$(sed -n 's/^#define CLI11_VERSION "\(.*\)"/\1/p' /usr/include/CLI/Version.hpp)
have=("boost-$((boost / 100000)).$((boost / 100 % 1000)).$((boost % 100))" "v$json" "v$cli11")
want=("$pfr_tag" "$json_tag" "$cli11_tag")
for i in 0 1 2; do
  [ "${have[$i]}" = "${want[$i]}" ] || {
    echo "the Dockerfile pins ${want[$i]:-nothing}, Debian's headers are ${have[$i]}: pin the tag whose headers Debian ships"; exit 1; }
done
mkdir -p "$SRC/pfr/include/boost" "$SRC/json/include" "$SRC/CLI11/include"
ln -s /usr/include/boost/pfr.hpp /usr/include/boost/pfr "$SRC/pfr/include/boost/"
ln -s /usr/include/nlohmann "$SRC/json/include/"
ln -s /usr/include/CLI "$SRC/CLI11/include/"

# build_and_check NAME CXXFLAGS ENGINE STDLIB ENTRY: one build.sh run into $tmp/NAME;
# ENTRY: direct (fuzz/oss-fuzz/build.sh) or image ($SRC/build.sh from $SRC/neffbar)
build_and_check() {
  local name=$1 stdlib=$4
  export CFLAGS="-O1 -fsanitize=fuzzer-no-link" CXXFLAGS="$2" LIB_FUZZING_ENGINE="$3"
  export OUT="$tmp/$name/out" WORK="$tmp/$name/work"
  mkdir -p "$OUT" "$WORK"
  if [ "$5" = image ]; then
    (cd "$SRC/neffbar" && bash -eu "$SRC/build.sh") > "$tmp/$name.log" 2>&1 || { tail -40 "$tmp/$name.log"; exit 1; }
  else
    "$here/fuzz/oss-fuzz/build.sh" > "$tmp/$name.log" 2>&1 || { tail -40 "$tmp/$name.log"; exit 1; }
  fi
  # Every header of the three came through $SRC, none from the system's copies the image
  # does not have (ninja's record of each object's headers).
  grep -q "NEFFBAR_PFR_INCLUDE:PATH=$SRC/pfr/include" "$WORK/neffbar-build/CMakeCache.txt" ||
    { echo "$name: build.sh did not take \$SRC/pfr/include"; exit 1; }
  local system
  system=$(ninja -C "$WORK/neffbar-build" -t deps | grep -E '^ +/usr/include/(boost|nlohmann|CLI)/' | sort -u | head -5 || true)
  [ -z "$system" ] || { echo "$name: headers from the system, not \$SRC: $system"; exit 1; }
  for t in "${targets[@]}"; do
    for f in "fuzz_$t" "fuzz_$t.options" "fuzz_$t.dict" "fuzz_${t}_seed_corpus.zip"; do
      [ -s "$OUT/$f" ] || { echo "$name: missing $OUT/$f"; exit 1; }
    done
    if [ "$stdlib" = libc++ ]; then
      # (ldd's output is captured first: with pipefail, grep -q closing the pipe early
      # would make ldd fail with SIGPIPE.)
      libs=$(ldd "$OUT/fuzz_$t")
      if grep -q 'libstdc++' <<<"$libs"; then echo "$name: fuzz_$t links libstdc++"; exit 1; fi
      grep -q 'libc++' <<<"$libs" || { echo "$name: fuzz_$t does not link libc++"; exit 1; }
    fi
    rm -rf "$tmp/seeds"; mkdir -p "$tmp/seeds"
    (cd "$tmp/seeds" && unzip -q "$OUT/fuzz_${t}_seed_corpus.zip")
    if [ -n "$3" ]; then
      "$OUT/fuzz_$t" -runs=200 "$tmp/seeds" > "$tmp/run.log" 2>&1 || { tail -20 "$tmp/run.log"; exit 1; }
    else
      "$OUT/fuzz_$t" "$tmp/seeds" > "$tmp/run.log" 2>&1 || { tail -20 "$tmp/run.log"; exit 1; }
    fi
  done
  echo "oss-fuzz build.sh ($name): ${#targets[@]} targets, options, dicts and seed zips in \$OUT; all ran on their seeds;" \
       "Boost.PFR $pfr_tag, nlohmann-json $json_tag, CLI11 $cli11_tag from \$SRC, as the image has them"
}

# 1. libc++ (as OSS-Fuzz builds), with a standalone engine: Debian's libFuzzer runtime
#    is itself built on libstdc++, so linking it would bring libstdc++ back in.
build_and_check libcxx "-O1 -stdlib=libc++" "" libc++ direct
# 2. libFuzzer with ASan+UBSan (the default libstdc++), entered as the image does.
build_and_check libfuzzer "-O1 -fsanitize=address,undefined,fuzzer-no-link" "-fsanitize=fuzzer,address,undefined" libstdc++ image
