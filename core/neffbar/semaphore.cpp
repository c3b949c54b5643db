#include "neffbar/semaphore.h"

namespace neffbar {

std::string_view prim_name(Prim p) {
  switch (p) {
    case Prim::Inc: return "inc";
    case Prim::IncVal: return "inc_val";
    case Prim::WaitGeAndDec: return "wait_ge_and_dec";
    case Prim::WaitGe: return "wait_ge";
    case Prim::WaitEqAndInc: return "wait_eq_and_inc";
    case Prim::WaitEqAndClear: return "wait_eq_and_clear";
  }
  return "?";
}

}  // namespace neffbar
