# neffbar_add_module(NAME SOURCES src... [DEFINITIONS def...] [LIBRARIES lib...] [EXPECT_FLAG flag])
#
# Puts an implementation of the barrier interface under the harness (core/neffbar/module/
# neffbar_module.h; the recipe for a repository of your own is in fuzz/modules/README.md):
#   neffbar_module_NAME        the module as a shared object, for `neffbar conform`;
#   fuzz_module_NAME           a differential fuzz target: every operation the module
#                              implements, run in the module and in the reference on the
#                              same input; the first disagreement aborts with one line
#                              (operation, field path, offset, both values, flag).  libFuzzer
#                              with NEFFBAR_LIBFUZZER, $LIB_FUZZING_ENGINE under OSS-Fuzz
#                              (NEFFBAR_FUZZ_ENGINE), else the replay main;
#   ctest module_NAME_conforms `neffbar conform` on it (when the CLI is built): exit 0, or
#                              with EXPECT_FLAG exit 4 and a line naming [flag] (a trap);
#   ctest fuzz_replay_module_NAME  the target over corpus/module (the committed seeds);
#                              with EXPECT_FLAG it must fail, one of its lines naming [flag]
#                              (NEFFBAR_MODULE_KEEP_GOING: every seed's line, not the first).
# The module's sources are compiled once (position-independent) for both.
include_guard(GLOBAL)
enable_language(C)  # modules are C (or anything with a C ABI)

# The function is called from a port's own folder, where neffbar's folder variables are
# not set: what it needs comes from this file's folder and from global properties.
function(neffbar_add_module name)
  set(NEFFBAR_MODULE_DIR ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  get_property(NEFFBAR_MODULE_ENGINE_FLAGS GLOBAL PROPERTY NEFFBAR_MODULE_ENGINE_FLAGS)
  set(NEFFBAR_MODULE_CORPUS ${NEFFBAR_MODULE_DIR}/../corpus/module)
  cmake_parse_arguments(PARSE_ARGV 1 M "" "EXPECT_FLAG" "SOURCES;DEFINITIONS;LIBRARIES")
  if(NOT M_SOURCES)
    message(FATAL_ERROR "neffbar_add_module(${name}): SOURCES is required")
  endif()
  add_library(neffbar_module_${name}_objects OBJECT ${M_SOURCES})
  set_target_properties(neffbar_module_${name}_objects PROPERTIES POSITION_INDEPENDENT_CODE ON C_STANDARD 11
                                                                  C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
  target_compile_definitions(neffbar_module_${name}_objects PRIVATE ${M_DEFINITIONS})
  target_include_directories(neffbar_module_${name}_objects PRIVATE ${NEFFBAR_MODULE_DIR}/../core)  # neffbar/module/neffbar_module.h
  target_link_libraries(neffbar_module_${name}_objects PRIVATE ${M_LIBRARIES})

  add_library(neffbar_module_${name} SHARED $<TARGET_OBJECTS:neffbar_module_${name}_objects>)
  target_link_libraries(neffbar_module_${name} PRIVATE ${M_LIBRARIES})

  set(target fuzz_module_${name})
  add_executable(${target} ${NEFFBAR_MODULE_DIR}/module_fuzzer_main.cpp $<TARGET_OBJECTS:neffbar_module_${name}_objects>)
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
  target_link_libraries(${target} PRIVATE neffbar_fuzz_module ${M_LIBRARIES})
  if(NEFFBAR_MODULE_ENGINE_FLAGS)
    target_link_options(${target} PRIVATE ${NEFFBAR_MODULE_ENGINE_FLAGS})
    if(NEFFBAR_LIBFUZZER)
      target_compile_options(${target} PRIVATE -fsanitize=fuzzer)
      set(replay_args -runs=0)
    endif()
  else()
    target_link_libraries(${target} PRIVATE neffbar_fuzz_replay)
  endif()

  # The tests (harmless where the project does not enable_testing()).
  if(NOT NEFFBAR_MODULE_ENGINE_FLAGS OR NEFFBAR_LIBFUZZER)
    if(M_EXPECT_FLAG)  # a trap: the seeds must find it (the target aborts), and the line must name it
      add_test(NAME fuzz_replay_module_${name} COMMAND sh -c "\"$0\" \"$@\" 2>&1; echo \"exit $?\""
               $<TARGET_FILE:${target}> ${replay_args} ${NEFFBAR_MODULE_CORPUS})
      set_tests_properties(fuzz_replay_module_${name} PROPERTIES ENVIRONMENT NEFFBAR_MODULE_KEEP_GOING=1
                           PASS_REGULAR_EXPRESSION "neffbar module disagreement: [^\n]*\\[${M_EXPECT_FLAG}\\].*exit [1-9]")
    else()
      add_test(NAME fuzz_replay_module_${name} COMMAND ${target} ${replay_args} ${NEFFBAR_MODULE_CORPUS})
    endif()
    set_tests_properties(fuzz_replay_module_${name} PROPERTIES LABELS "fuzz-replay;module")
  endif()
  if(TARGET neffbar)
    if(M_EXPECT_FLAG)  # exit 4, and the table names the flag
      add_test(NAME module_${name}_conforms COMMAND sh -c "\"$0\" conform \"$1\" --seconds 1; echo \"exit $?\""
               $<TARGET_FILE:neffbar> $<TARGET_FILE:neffbar_module_${name}>)
      set_tests_properties(module_${name}_conforms PROPERTIES
                           PASS_REGULAR_EXPRESSION "\\[${M_EXPECT_FLAG}\\].*verdict: DISAGREES.*exit 4")
    else()
      add_test(NAME module_${name}_conforms COMMAND neffbar conform $<TARGET_FILE:neffbar_module_${name}> --seconds 1)
    endif()
    set_tests_properties(module_${name}_conforms PROPERTIES LABELS "e2e;module")
  endif()
endfunction()
