#include "neffbar/model/frontend/hypothesis_params.h"

namespace neffbar::model {

std::string_view name(DecMode d) { return enum_name(d); }
std::string_view name(Roles r) { return enum_name(r); }
std::string_view name(HostAddrs h) { return enum_name(h); }
std::string_view name(Compare c) { return enum_name(c); }

}  // namespace neffbar::model
