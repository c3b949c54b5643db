// A scenario's topology and readings as JSON keys: the one spelling that compose's
// manifest and the hypothesis matrix's report share (and the manifest reads back).
#pragma once

#include <nlohmann/json.hpp>

#include "neffbar/model/frontend/composer.h"
#include "neffbar/model/frontend/hypothesis_params.h"

namespace neffbar::model {

inline void put_options(nlohmann::ordered_json& j, const Topology& t, const Hypotheses& h) {
  j["chips"] = t.chips;
  j["leaders"] = t.leaders;
  j["fabric"] = fabric_name(t.fabric);
  j["host_cc"] = t.host_cc;
  j["rounds"] = t.rounds;
  j["compare"] = name(h.compare);
  j["dec"] = name(h.dec);
  j["wiring"] = name(t.wiring);
  j["lowering"] = name(t.lowering);
  j["roles"] = name(h.roles);
  j["host_addrs"] = name(h.host_addrs);
}

}  // namespace neffbar::model
