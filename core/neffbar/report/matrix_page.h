// The hypothesis matrix as one self-contained page (no network): a grid with one cell
// per scenario, coloured by verdict, rows the topology, host-CC, rounds and lowering,
// columns the readings (compare, dec, wiring, roles, host addrs).  A failing cell whose
// row kept its counterexample (MatrixOptions::keep_counterexamples) links to
// #cell=K, which draws that counterexample's sequence chart below the grid with the
// chart's own script (sequence_chart.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "neffbar/model/scenarios/matrix.h"

namespace neffbar::report {

// The grid's two axes: what a row and what a column of cells is, as text.
std::string grid_row_key(const model::MatrixRow& r);
std::string grid_column_key(const model::MatrixRow& r);

// The verdict's one-letter mark in a cell ("" for OK).
std::string_view verdict_mark(model::Verdict v);

std::string matrix_html(const std::vector<model::MatrixRow>& rows, std::string_view title);

}  // namespace neffbar::report
