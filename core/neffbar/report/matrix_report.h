// The hypothesis matrix rendered (matrix.h computes it; rendering stays out of the
// engines): a Markdown table, one JSON object per row, and the full table's summary.
#pragma once

#include <string>
#include <vector>

#include "neffbar/model/scenarios/matrix.h"

namespace neffbar::report {

// For the full table: for each lowering, fabric, wiring and host-CC, the chip counts
// at which each leader count gives OK (the places where it is a global barrier).
std::string full_summary_markdown(const std::vector<model::MatrixRow>& rows);

std::string matrix_markdown(const std::vector<model::MatrixRow>& rows);
std::string matrix_json(const std::vector<model::MatrixRow>& rows);

}  // namespace neffbar::report
