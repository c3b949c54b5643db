#include "neffbar/model/system/verdict.h"

namespace neffbar::model {

std::string_view verdict_name(Verdict v) { return enum_name(v); }
std::string_view global_status_name(GlobalStatus g) { return enum_name(g); }
std::string_view engine_name(Engine e) { return enum_name(e); }

}  // namespace neffbar::model
