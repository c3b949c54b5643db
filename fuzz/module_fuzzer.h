// The differential fuzz driver of a module (neffbar_add_module, fuzz/module.cmake): one
// input is one call of one operation, run in the module and in the reference.  Byte 0
// picks the operation ((byte & 0x7F) % 5, in neffbar_module.h's order; for decode_log,
// bit 7 the full log); the rest is the operation's input:
//   decode_log   the image (any length: 0x128 is the interesting one)
//   encode_log   the log text
//   search       fabric (u8: 0 default, 1 switch), type and step (i8 each)
//   table_bytes  fabric (u8)
//   sema_apply   n-1 (u8 % 4), n values (i32 LE), prim, sema (u8 each), value, dec (i32 LE), compare (u8)
// Missing bytes read as 0.  The first disagreement prints
//   neffbar module disagreement: <operation>: <path> at <offset>: reference R, module M [Flag]
// on stderr and aborts (libFuzzer keeps the input as a crash); with
// NEFFBAR_MODULE_KEEP_GOING set, it goes on and the process exits 1 at the end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "neffbar/module/differential.h"
#include "neffbar/module/neffbar_module.h"

namespace neffbar::fuzz {

// The module's disagreement with the reference on this input, if any.
std::optional<Disagreement> differ(const neffbar_module& module, std::span<const std::uint8_t> input);

// differ(), and on a disagreement the line above and abort().  Returns 0.
int run_module(const neffbar_module& module, const std::uint8_t* data, std::size_t size);

// The module the entry returned, checked once: null, another ABI version or no name
// print one line and abort.
const neffbar_module& checked_module(const neffbar_module* module);

// The custom mutator of an input whose operation byte is at `at` (0 for a module's own
// target, 1 for `modules`): the config mutator (config_mutator.h) on a decode_log
// image, libFuzzer's own mutation for the other operations.
std::size_t mutate_module_input(std::uint8_t* data, std::size_t size, std::size_t max_size, std::size_t at,
                                unsigned int seed);

}  // namespace neffbar::fuzz
