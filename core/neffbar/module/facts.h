// The facts and traps a port of the barrier interface must get right, one row each:
// the flags of the test vectors (corpus/vectors/) and of the differential's
// disagreement lines.  A row's bytes, when it has any, let a field disagreement at an
// offset name the fact it breaks.  Sources are the binaries' addresses of
// core/neffbar/README.md; the tag is its confidence.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "neffbar/schema.h"

namespace neffbar {

struct Fact {
  std::string_view flag;       // the vectors' flag, e.g. "TotalDescNNotLogged"
  Tag tag;
  std::string_view source;     // binary and address
  std::string_view statement;  // what holds, and the trap it catches
  bool trap = false;           // a GOTCHA or CORRECTION of the sources: a port's likely slip
  std::uint32_t first = 1;     // the bytes of the image it is about, [first, last]; none by default
  std::uint32_t last = 0;
};

inline constexpr std::array kFacts{
    Fact{"TotalDescNNotLogged", Tag::Observed,
         "IDA neff_device_barrier_configs_t (size 0x124); libncfw device decoder @0xfef5 loads +0x118 then +0x120",
         "total_desc_n u32 at +0x11C is real but the logger steps over it: a struct mirrored from the log is 0x124 "
         "bytes, not 0x128, and every later field moves",
         true, 0x11C, 0x123},  // total_desc_n and the fields a 0x124 mirror moves onto it
    Fact{"OneBaseTwoViews", Tag::Observed,
         "libncfw ncfw_log_neff_barrier_config @0x10f8b passes one base to both decoders (@0x11313, @0x11330)",
         "host_barrier (barrier_start @0, barrier_done @8) overlays the first 16 bytes of barrier_step_config[0]: "
         "one struct at one base, not two sub-struct bases",
         true, 0x000, 0x00F},
    Fact{"GatePrintedAsPointer", Tag::Observed, "libncfw @0x1121a movzx [rax+0x124], @0x11221 and eax,1, format \"%p\" @0x65328",
         "execute_device_barrier is bit 0 of +0x124, printed with %p: the log shows \"0x0\" or \"0x1\" (glibc "
         "prints a null %p as \"(nil)\")",
         true, 0x124, 0x124},
    Fact{"ReservedAfterGate", Tag::Observed, "IDA neff_barrier_configs_t (size 0x128)",
         "7 reserved bits follow the gate bit in +0x124, then 3 reserved bytes +0x125..+0x127: the struct is 0x128 "
         "bytes and the gate is one bit, not a byte",
         true, 0x124, 0x127},
    Fact{"Field1IsEntryExit", Tag::Observed,
         "IDA barrier_operation_t; libnrt search_barr_type_in_step @0xf58a0 returns field 1 (@0xf5914/@0xf5919)",
         "a table entry's field 1 is barrier_operation_t ENTRY 0 / EXIT 1 (2 the pad), not signal/wait/nop",
         true},
    Fact{"TypeIdsAreNotSemaIds", Tag::Observed, "IDA barrier_type_t; ENCD_*_SEMA_ID of libnrt",
         "a table entry's field 0 is a barrier_type_t scope (INTRA_CHIP 0 .. INTER_RACK 6), not a sema id "
         "(BARRIER_DMA_SYNC 4, HOST_BARRIER_ID0 6 ...): the two numbering spaces are distinct",
         true},
    Fact{"StepStride0x34", Tag::Observed, "libncfw step decoder @0xed02: index x 52 (@0xf00d-0xf023)",
         "barrier_step_config[4] has a stride of 0x34, packed: barrier_sema[4] u64 at +4 is unaligned", false, 0x000, 0x0CF},
    Fact{"DeviceFieldsAfterSteps", Tag::Observed, "libncfw device decoder @0xfef5; IDA neff_device_barrier_configs_t",
         "dma_sync_sema[4] +0xD0, dma_apb_bcast +0xF0 (0x14), start_network_proxy +0x104, dma_sync_sema_value +0x10C, "
         "tdrbp_low/high +0x110/+0x114, desc_count +0x118, dma_engines_bitmap u16 +0x120, queue_id u8 +0x122",
         false, 0x0D0, 0x123},
    Fact{"AddrPrintedAs016lX", Tag::Observed, "libncfw ncfw_log_addr @0x41c3, format @0x65127",
         "every soc_addr prints as { \"addr\": { \"soc_addr\": \"0x%016lX\" } }: 16 upper-case hex digits"},
    Fact{"FullLogLossless", Tag::Assumed, "neffbar's extension of the libncfw log",
         "the full log adds total_desc_n, __pad, __reserved0 and __reserved so that bytes -> JSON -> bytes is lossless"},
    Fact{"LengthIs0x128", Tag::Observed, "IDA neff_barrier_configs_t (size 0x128)",
         "an image of any other length than 0x128 is refused"},
    Fact{"HostMustMatchOverlay", Tag::Assumed, "neffbar's reader (the logger prints both views from one base)",
         "a log whose host_barrier disagrees with the step-0 bytes it overlays is refused", false, 0x000, 0x00F},
    Fact{"ShippedTables", Tag::Observed, "libnrt .rodata @0x7cf000..: barrier_algorithm_steps[_for_switch_family], "
                                         "barrier_step_sizes {1,4,4,1}, step_sizes_for_switch_family {1,2,2,1}",
         "the two 4-step tables, byte for byte, inactive slots (7,2)"},
    Fact{"FirstMatchWins", Tag::Observed, "libnrt search_barr_type_in_step @0xf58a0, scan @0xf5908",
         "search scans sizes[step] entries of the step's row and returns the first whose type matches"},
    Fact{"SearchOutOfRange", Tag::Assumed, "libnrt @0xf58e8 loads sizes[step] with no bounds check",
         "a step outside 0..3 or a type outside 0..6 is not found (the binary would read out of bounds)"},
    Fact{"SemaSigned32", Tag::Assumed, "the TOP_SP semaphores of libnrt add_semaphore_* (@0x273820..@0x273ac0)",
         "a semaphore is a signed 32-bit value; a result outside int32 is an overflow, never wrapped; a blocked or "
         "overflowing primitive changes nothing"},
    Fact{"WaitGeCompare", Tag::Inferred, "libnrt add_semaphore_wait_ge_and_dec @0x273a20 compare mode 5 (>=); the "
                                         "device spin loop releases on > (hypothesis C4)",
         "the GE waits release on >= in the encoder's reading and on > in the spin loop's: the compare is a parameter"},
    Fact{"WaitGeAndDecByDec", Tag::Observed, "libnrt add_semaphore_wait_ge_and_dec @0x273a20 (subop 20, immediate)",
         "wait_ge_and_dec removes its decrement after the wait passes, not the threshold"},
};

// The fact named `flag`; nullopt when there is none.
constexpr std::optional<Fact> fact(std::string_view flag) {
  for (const Fact& f : kFacts)
    if (f.flag == flag) return f;
  return std::nullopt;
}

// The first trap whose bytes hold `offset`, else the first fact whose bytes do: what a
// field disagreement there breaks.
constexpr std::optional<Fact> fact_at(std::uint32_t offset) {
  for (const bool trap : {true, false})
    for (const Fact& f : kFacts)
      if (f.trap == trap && f.first <= offset && offset <= f.last) return f;
  return std::nullopt;
}

}  // namespace neffbar
