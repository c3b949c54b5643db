// One visitor from several lambdas, for std::visit over a variant (the standard idiom).
#pragma once

namespace neffbar {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace neffbar
