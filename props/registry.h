// The one list of properties: each name with its generator and its law bound to the
// real implementation.  props_tests runs every entry under rapidcheck
// (properties_test.cpp); fuzz/property_fuzzer.cpp runs the entry its target names from
// the fuzz input's bytes; props/properties.cmake reads the names from the
// `Property<...>{"name"` entries below for CMake (one fuzz target prop_<name> each;
// drivers_test.cpp checks it read them all), so keep each entry's name on the line of
// its `Property<...>{`.  No rapidcheck here.
#pragma once

#include <string_view>
#include <vector>

#include "properties.h"

namespace neffbar::props {

template <class In>
struct Property {
  std::string_view name;
  In (*draw)(Source&);
  void (*law)(const In&, Judge&);
};

template <class Visit>
void for_each_property(Visit&& visit) {
  visit(Property<P1Input>{"p1_round_trip", draw_p1, [](const P1Input& in, Judge& j) { p1_round_trip(in, CodecImpl{}, j); }});
  visit(Property<P2Input>{"p2_overlay", draw_p2, [](const P2Input& in, Judge& j) { p2_overlay(in, decode_host, j); }});
  visit(Property<P3Input>{"p3_search", draw_p3, [](const P3Input& in, Judge& j) { p3_search_agreement(in, real_fast, j); }});
  visit(Property<TopologyInput>{"p4_fabrics", draw_p4,
                                [](const TopologyInput& in, Judge& j) { p4_fabrics_agree(in, real_compose, j); }});
  visit(Property<TopologyInput>{"p5_deadlock", draw_p5,
                                [](const TopologyInput& in, Judge& j) { p5_deadlock_freedom(in, real_compose, j); }});
  visit(Property<P5FaultInput>{"p5_faults", draw_p5_faults, [](const P5FaultInput& in, Judge& j) {
                                 p5_faults_are_caught(in, [](const System& s) { return check_explicit(s); }, j);
                               }});
  visit(Property<P6Input>{"p6_and", draw_p6, [](const P6Input& in, Judge& j) { p6_all_leaders_and(in, real_compose, j); }});
  visit(Property<CtxInput>{"p7_merge", draw_p7, [](const CtxInput& in, Judge& j) { p7_host_cc_merge(in, is_host_cc, j); }});
  visit(Property<P8Input>{"p8_arithmetic", draw_p8, [](const P8Input& in, Judge& j) {
                            p8_sema_id_arithmetic(in, leader_done_sema_id_from_al, is_host_cc, j);
                          }});
  visit(Property<P9Input>{"p9_reuse", draw_p9, [](const P9Input& in, Judge& j) { p9_reusability(in, real_compose, j); }});
  visit(Property<P10Input>{"p10_machine", draw_p10, [](const P10Input& in, Judge& j) {
                             p10_semaphore_machine(in, [](std::span<std::int32_t> f, const SemaOp& op, Compare c) { return apply(f, op, c); }, j);
                           }});
  visit(Property<P11Input>{"p11_oracle", draw_p11, [](const P11Input& in, Judge& j) { p11_oracle_agrees(in, static_oracle, j); }});
  visit(Property<ReductionInput>{"reductions", draw_reductions, [](const ReductionInput& in, Judge& j) {
                                   reductions_agree_with_the_reference(in, [](const System& s, const CheckOptions& o) { return check_explicit(s, o); }, j);
                                 }});
  visit(Property<SystemInput>{"persistent", draw_persistent, [](const SystemInput& in, Judge& j) {
                                persistent_engine_agrees(in, check_persistent, j);
                              }});
  visit(Property<CutInput>{"budget_cuts", draw_cuts, [](const CutInput& in, Judge& j) { budget_cuts_are_honest(in, CutImpl{}, j); }});
  visit(Property<DiffInput>{"config_diff", draw_diff, [](const DiffInput& in, Judge& j) { config_diff_names_the_changed_fields(in, diff_configs, j); }});
  visit(Property<ComposedEnginesInput>{"composed_engines", draw_composed_engines, [](const ComposedEnginesInput& in, Judge& j) {
                                         composed_engines_never_fail(in, decide, j);
                                       }});
  visit(Property<MatrixRowInput>{"matrix_rows", draw_matrix_row, [](const MatrixRowInput& in, Judge& j) {
                                   matrix_rows_hold(in, [](const Scenario& s) { return matrix_row(s); }, j);
                                 }});
  visit(Property<ConfigSetInput>{"config_sets", draw_config_sets, [](const ConfigSetInput& in, Judge& j) {
                                   config_sets_decide(in, static_oracle, j);
                                 }});
  visit(Property<ComposedFilesInput>{"composed_files", draw_composed_files, [](const ComposedFilesInput& in, Judge& j) {
                                       composed_files_decide_as_the_topology(in, FilesImpl{}, j);
                                     }});
  visit(Property<ChartInput>{"sequence_chart", draw_chart, [](const ChartInput& in, Judge& j) { sequence_chart_reads_back(in, real_chart_page, j); }});
  visit(Property<GridInput>{"matrix_grid", draw_grid, [](const GridInput& in, Judge& j) { grid_reads_back(in, real_grid_page, j); }});
}

inline std::vector<std::string_view> property_names() {
  std::vector<std::string_view> names;
  for_each_property([&](const auto& p) { names.push_back(p.name); });
  return names;
}

}  // namespace neffbar::props
