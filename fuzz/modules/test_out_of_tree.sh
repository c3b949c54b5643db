#!/usr/bin/env bash
# ctest module_out_of_tree (label slow): fuzz/modules/example_project, a port's own
# repository, built from a clean folder the way the recipe of fuzz/modules/README.md
# says, then what it gives the port: `neffbar conform` on its module, its differential
# target over the committed seeds, and the same target built as OSS-Fuzz builds one
# (clang with libc++; clang with ASan and $LIB_FUZZING_ENGINE = -fsanitize=fuzzer, run
# for 10 s).
# Writes only to a temporary folder.  Exit 0 all passed, 1 a step failed (named).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
step() { echo "== $*"; }
fail() { echo "module_out_of_tree: $*" >&2; exit 1; }
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
launcher=(); command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)

step "configure and build (g++-12): cmake -S example_project -B build -DNEFFBAR_DIR=<neffbar>"
t0=$(date +%s)
cmake -S "$root/fuzz/modules/example_project" -B "$tmp/build" -G Ninja -DNEFFBAR_DIR="$root" \
  -DCMAKE_CXX_COMPILER=g++-12 -DCMAKE_C_COMPILER=gcc-12 "${launcher[@]}" > "$tmp/configure.log" 2>&1 ||
  { tail -20 "$tmp/configure.log"; fail "configure failed"; }
cmake --build "$tmp/build" -j "$(nproc)" --target neffbar neffbar_module_my_port fuzz_module_my_port > "$tmp/build.log" 2>&1 ||
  { tail -30 "$tmp/build.log"; fail "build failed"; }
echo "   built in $(( $(date +%s) - t0 )) s"

step "neffbar conform on the module"
"$tmp/build/neffbar/core/neffbar" conform "$tmp/build/libneffbar_module_my_port.so" --seconds 1 || fail "conform: exit $?"
step "ctest of the port's project (conform, the differential replay of the seeds)"
(cd "$tmp/build" && ctest --output-on-failure -R 'module_my_port|fuzz_replay_module_my_port') || fail "the port's ctest failed"

# The OSS-Fuzz way, as fuzz/oss-fuzz/test_build.sh builds neffbar's own targets: libc++
# with the replay engine (Debian's libFuzzer runtime is built on libstdc++), then
# libFuzzer with ASan on the default library, run for 10 s from the seeds.
oss() {  # oss NAME CFLAGS CXXFLAGS ENGINE
  CC=clang-14 CXX=clang++-14 CFLAGS="$2" CXXFLAGS="$3" \
    cmake -S "$root/fuzz/modules/example_project" -B "$tmp/$1" -G Ninja -DNEFFBAR_DIR="$root" -DNEFFBAR_CLI=OFF \
    -DNEFFBAR_FUZZ_ENGINE="$4" "${launcher[@]}" > "$tmp/$1-configure.log" 2>&1 ||
    { tail -20 "$tmp/$1-configure.log"; fail "$1: configure failed"; }
  cmake --build "$tmp/$1" -j "$(nproc)" --target fuzz_module_my_port > "$tmp/$1-build.log" 2>&1 ||
    { tail -30 "$tmp/$1-build.log"; fail "$1: build failed"; }
}
step "the OSS-Fuzz way (1): clang, libc++, the replay engine, over the seeds"
oss libcxx "-O1" "-O1 -stdlib=libc++" ""
ldd "$tmp/libcxx/fuzz_module_my_port" | grep -q 'libc++' || fail "libcxx: the target does not link libc++"
"$tmp/libcxx/fuzz_module_my_port" "$root/corpus/module" || fail "libcxx: the target fails on the seeds"
step "the OSS-Fuzz way (2): clang, ASan, -fsanitize=fuzzer as \$LIB_FUZZING_ENGINE, 10 s"
asan="-O1 -gline-tables-only -fsanitize=address,fuzzer-no-link"
oss libfuzzer "$asan" "$asan" "-fsanitize=fuzzer,address"
mkdir "$tmp/new"
"$tmp/libfuzzer/fuzz_module_my_port" -max_total_time=10 "$tmp/new" "$root/corpus/module" > "$tmp/fuzz.log" 2>&1 ||
  { tail -20 "$tmp/fuzz.log"; fail "the port's fuzz target found a disagreement or crashed"; }
grep -E '^#[0-9]+ +DONE' "$tmp/fuzz.log" | tail -1
echo "module_out_of_tree: ok"
