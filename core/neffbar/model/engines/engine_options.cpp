#include "neffbar/model/engines/engine_options.h"

namespace neffbar::model {

std::string decimal_text(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (s.ends_with('.')) s.pop_back();
  return s;
}

}  // namespace neffbar::model
