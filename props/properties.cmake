# The properties of props/registry.h, as CMake reads them: fuzz/targets.cmake makes one
# prop_<name> fuzz target of each, and props_tests checks (drivers_test.cpp) that this
# list is the registry's.  Read by fuzz/ (which builds on props/), never the other way.
set(NEFFBAR_PROPERTIES p1_round_trip p2_overlay p3_search p4_fabrics p5_deadlock p5_faults p6_and p7_merge
    p8_arithmetic p9_reuse p10_machine p11_oracle reductions persistent)
