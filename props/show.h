// How rapidcheck prints neffbar values in counterexamples (Boost.PFR, field by field).
#pragma once

#include <rapidcheck/Show.h>

#include <ostream>

#include "neffbar/config.h"
#include "neffbar/model/frontend/composer.h"
#include "neffbar/model/frontend/faults.h"
#include "neffbar/tables.h"
#include "neffbar/model/frontend/hypothesis_params.h"
#include "neffbar/model/system/system.h"
#include "neffbar/model/system/verdict.h"
#include "neffbar/semaphore.h"

namespace neffbar {

template <class T>
  requires has_schema_v<T>
void showValue(const T& v, std::ostream& os) {
  os << schema_for<T>::value.name << "{";
  boost::pfr::for_each_field(v, [&os](const auto& f, auto idx) {
    os << (decltype(idx)::value ? ", " : "") << schema_for<T>::value.fields[decltype(idx)::value].name << "=";
    using F = std::decay_t<decltype(f)>;
    if constexpr (std::is_integral_v<F>) {
      os << +f;
    } else if constexpr (is_std_array<F>::value) {
      os << "[";
      for (std::size_t i = 0; i < f.size(); ++i) {
        if (i) os << ",";
        if constexpr (std::is_integral_v<typename F::value_type>) os << +f[i];
        else showValue(f[i], os);
      }
      os << "]";
    } else {
      showValue(f, os);
    }
  });
  os << "}";
}

inline void showValue(const TableImage& t, std::ostream& os) {
  os << "TableImage{sizes={" << +t.sizes[0] << "," << +t.sizes[1] << "," << +t.sizes[2] << "," << +t.sizes[3] << "}, entries=";
  for (int s = 0; s < kSteps; ++s) {
    for (int e = 0; e < kEntries; ++e) {
      const TableEntry x = entry_at(t, s, e);
      os << "(" << x.type << "," << x.op << ")";
    }
    os << (s < 3 ? "|" : "}");
  }
}

namespace model {
inline void showValue(const Topology& t, std::ostream& os) {
  os << "Topology{chips=" << t.chips << ", leaders=" << t.leaders << ", fabric=" << fabric_name(t.fabric)
     << ", host_cc=" << t.host_cc << ", rounds=" << t.rounds << ", wiring=" << name(t.wiring)
     << ", lowering=" << name(t.lowering) << "}";
}
inline void showValue(Fault f, std::ostream& os) { os << name(f); }
inline void showValue(DecMode d, std::ostream& os) { os << name(d); }
inline void showValue(const System& s, std::ostream& os) { os << "System:\n" << listing(s); }
inline void showValue(Engine e, std::ostream& os) { os << engine_name(e); }
inline void showValue(GuaranteeMode g, std::ostream& os) { os << enum_name(g); }
inline void showValue(const Hypotheses& h, std::ostream& os) {
  os << "Hypotheses{compare=" << name(h.compare) << ", dec=" << name(h.dec) << ", roles=" << name(h.roles)
     << ", host_addrs=" << name(h.host_addrs) << ", proxy=" << h.proxy << "}";
}
}  // namespace model

inline void showValue(Compare c, std::ostream& os) { os << model::name(c); }
inline void showValue(const SemaOp& op, std::ostream& os) {
  os << prim_name(op.prim) << "(s" << op.sema << ", " << op.value << ", dec " << op.dec << ")";
}

namespace props {
// A property's typed input (properties.h), field by field in declaration order.
template <class T>
  requires requires { T::kPropertyInput; }
void showValue(const T& v, std::ostream& os) {
  os << "{";
  boost::pfr::for_each_field(v, [&os](const auto& f, std::size_t i) {
    if (i) os << ", ";
    rc::show(f, os);
  });
  os << "}";
}
}  // namespace props

}  // namespace neffbar
