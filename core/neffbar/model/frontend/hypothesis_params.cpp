#include "neffbar/model/frontend/hypothesis_params.h"

namespace neffbar::model {

std::string_view name(DecMode d) { return d == DecMode::One ? "one" : "target"; }
std::string_view name(Roles r) { return r == Roles::Code ? "code" : "narrative"; }
std::string_view name(HostAddrs h) { return h == HostAddrs::Ctx ? "ctx" : "config"; }
std::string_view name(Compare c) { return c == Compare::Ge ? "ge" : "gt"; }

}  // namespace neffbar::model
