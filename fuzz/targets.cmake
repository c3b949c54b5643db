# The one list of fuzz targets (fuzz/fuzz_<name>.cpp each).  fuzz/CMakeLists.txt
# includes it; scripts/fuzz, scripts/coverage, scripts/run and fuzz/oss-fuzz/build.sh
# read it with `cmake -P fuzz/targets.cmake`, which prints the names on one line (so
# does the build target print_fuzz_targets, after simdjson's print_all_fuzzernames).
set(NEFFBAR_FUZZ_TARGETS decode json search sema handshake barrier names cli)
set(NEFFBAR_FUZZ_CLI cli)                  # targets that link the CLI library (core/cli) too
set(NEFFBAR_FUZZ_MUTATED decode barrier)  # targets with the schema-driven mutator

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  string(REPLACE ";" " " names "${NEFFBAR_FUZZ_TARGETS}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E echo "${names}")
endif()
