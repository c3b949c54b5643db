// sema: a raw op trace (7 bytes an op: any primitive byte, any int32 value) run as one
// process: the checker ends exactly as the semaphore machine does: DEADLOCK at the
// first blocked op, OVERFLOW at the first overflow, otherwise OK when every semaphore is
// back at 0 and NOT_REUSABLE when one is not.  (The machine against the independent
// model is P10: the target prop_p10_machine.)
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "fuzz_judge.h"
#include "neffbar/bytes.h"
#include "neffbar/model/engines/explicit/search.h"
#include "report_laws.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace neffbar;
  constexpr std::uint32_t kSemas = 4;
  constexpr std::size_t kCheckedOps = 32;
  std::vector<std::int32_t> file(kSemas, 0);
  const Compare cmp = size > 0 && (data[0] & 1) ? Compare::Gt : Compare::Ge;
  model::System sys;
  sys.compare = cmp;
  for (std::uint32_t s = 0; s < kSemas; ++s) sys.semas.push_back(model::Semaphore{"s" + std::to_string(s), s, 0});
  sys.procs.push_back(model::Process{"trace", {}, {}, false});
  model::Verdict want = model::Verdict::Ok;  // how the trace ends when run in order
  for (std::size_t at = 1; at + 7 <= size; at += 7) {
    SemaOp op;
    op.prim = static_cast<Prim>(data[at] % 6);
    op.sema = data[at + 1] % kSemas;
    op.value = static_cast<std::int32_t>(load_le(data + at + 2, 4));  // any int32, the edges included
    op.dec = data[at + 6] % 3;
    const Outcome got = want == model::Verdict::Ok ? apply(file, op, cmp) : Outcome::Done;
    sys.procs[0].program.push_back(model::Instr{model::Marker::None, op});
    if (want == model::Verdict::Ok && got != Outcome::Done) {
      want = got == Outcome::Blocked ? model::Verdict::Deadlock : model::Verdict::Overflow;
    }
  }
  // Every op done: the checker ends with the machine's final values.
  if (want == model::Verdict::Ok) {
    for (std::uint32_t s = 0; s < kSemas; ++s) {
      if (file[s] != 0) want = model::Verdict::NotReusable;
    }
  }
  // The checker costs ~1 ms a trace under ASan: long traces add nothing it has not
  // seen in the first 32 ops, so only short ones go through it.
  if (sys.procs[0].program.size() > kCheckedOps) return 0;
  const model::CheckResult r = model::check_explicit(sys);
  fuzz::require(r.verdict == want, "the checker runs a trace as the machine does");
  fuzz::FuzzJudge judge("sema", size, true);
  props::counterexample_reads(sys, r, judge);
  props::promela_reads(sys, judge);
  return 0;
}
