#!/bin/bash -eu
# ClusterFuzzLite uses the same build as OSS-Fuzz.
exec "$SRC/neffbar/fuzz/oss-fuzz/build.sh"
