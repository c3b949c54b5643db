# The one list of fuzz targets.  fuzz/CMakeLists.txt includes it; scripts/fuzz,
# scripts/coverage, scripts/run and fuzz/oss-fuzz/build.sh read it with
# `cmake -P fuzz/targets.cmake`, which prints the names on one line (so does the build
# target print_fuzz_targets, after simdjson's print_all_fuzzernames).
#
# Format targets (fuzz/fuzz_<name>.cpp) take raw bytes of one input format.  Property
# targets prop_<property> run one property of props/registry.h from bytes (the same
# law and generator rapidcheck runs in CI); their options and dictionaries are in
# fuzz/properties/.
set(NEFFBAR_FUZZ_FORMATS decode json search sema handshake barrier names cli modules)
include(${CMAKE_CURRENT_LIST_DIR}/../props/properties.cmake)  # NEFFBAR_PROPERTIES, read from props/registry.h
set(NEFFBAR_FUZZ_PROPERTIES ${NEFFBAR_PROPERTIES})
set(NEFFBAR_FUZZ_CLI cli)                  # targets that link the CLI library (core/cli) too
set(NEFFBAR_FUZZ_MUTATED decode barrier)  # targets with the schema-driven mutator

set(NEFFBAR_FUZZ_TARGETS ${NEFFBAR_FUZZ_FORMATS})
foreach(p IN LISTS NEFFBAR_FUZZ_PROPERTIES)
  list(APPEND NEFFBAR_FUZZ_TARGETS prop_${p})
endforeach()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  string(REPLACE ";" " " names "${NEFFBAR_FUZZ_TARGETS}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E echo "${names}")
endif()
