// The `@` words of the cli fuzz target: file-system objects as hostile as a user's,
// which fuzz_cli.cpp expands into paths and options, and make_corpus.cpp puts in the
// target's dictionary.  One name table (EnumNames) for both.
#pragma once

#include <cstdint>

#include "neffbar/enum_names.h"

namespace neffbar::fuzz {
enum class CliObject : std::uint8_t {
  Dir,         // a directory
  Missing,     // a path that does not exist
  Null,        // /dev/null
  Zero,        // /dev/zero: endless input
  Fifo,        // a FIFO a slow writer feeds with the input's stdin bytes, then closes
  OutFull,     // -o /dev/full
  OutDir,      // -o a directory
  OutFile,     // -o a file in the scratch folder
  StdoutFull,  // no word: stdout fails on every write
  // Outputs that exist before the command runs (made for the run that names them).
  OutExisting,  // -o an existing file (mode 0640)
  OutBusy,      // -o a folder that holds a file and no manifest.json (not compose's)
  OutCompose,   // -o a copy of @compose: an earlier compose's output
  OutLink,      // -o a symbolic link (a relative one) to an existing file beside it
  // The reference's files, made once a process by running compose in process; read only.
  Config,          // one leader's image (@compose's chip00_leader0.bin)
  Log,             // its full JSON log (@compose-logs' chip00_leader0.json)
  Compose,         // compose --chips 2 --leaders 2 --host-cc
  ComposeLogs,     // ... with --logs
  Compose2,        // compose --chips 2 --leaders 2 --host-cc --wiring counting: the same names, other bytes
  Manifest,        // @compose's manifest.json
  Images,          // a directory of two of @compose's images, no manifest
  ManifestDup,     // @compose with a manifest that holds a key twice
  ManifestDeep,    // @compose with a manifest whose "format" is 100,000 nested arrays
  ManifestFewer,   // @compose with chip 0's driver context from a 1-leader compose
  ManifestMissing, // @compose without one of the images its manifest names
  ImagesNonUtf8,   // a directory of images, one named "\xff.bin"
  FifoCompose,     // @compose whose manifest.json is the FIFO (@fifo): stdin is the manifest
  // Modules for conform (fuzz/modules/), where the build made them; else a missing path.
  Module,          // the C11 port's shared object: it agrees
  ModuleTrap,      // the port with a trap switched on (MIRRORED_0x124): it disagrees
  ModuleCrash,     // modules/hostile_module.c's: crashes in its first decode_log
  ModuleHang,      // ... hangs in search
  ModuleExit,      // ... calls exit(3) in decode_log
  Vectors,         // a folder of the test vectors, as corpus/vectors holds them (make_vectors)
};
}  // namespace neffbar::fuzz

namespace neffbar {
template <>
struct EnumNames<fuzz::CliObject> {
  using O = fuzz::CliObject;
  static constexpr NameTable<O, 32> table{{{O::Dir, "@dir"},
                                           {O::Missing, "@missing"},
                                           {O::Null, "@null"},
                                           {O::Zero, "@zero"},
                                           {O::Fifo, "@fifo"},
                                           {O::OutFull, "@out-full"},
                                           {O::OutDir, "@out-dir"},
                                           {O::OutFile, "@out-file"},
                                           {O::StdoutFull, "@stdout-full"},
                                           {O::OutExisting, "@out-existing"},
                                           {O::OutBusy, "@out-busy"},
                                           {O::OutCompose, "@out-compose"},
                                           {O::OutLink, "@out-link"},
                                           {O::Config, "@config"},
                                           {O::Log, "@log"},
                                           {O::Compose, "@compose"},
                                           {O::ComposeLogs, "@compose-logs"},
                                           {O::Compose2, "@compose2"},
                                           {O::Manifest, "@manifest"},
                                           {O::Images, "@images"},
                                           {O::ManifestDup, "@manifest-dup"},
                                           {O::ManifestDeep, "@manifest-deep"},
                                           {O::ManifestFewer, "@manifest-fewer"},
                                           {O::ManifestMissing, "@manifest-missing"},
                                           {O::ImagesNonUtf8, "@images-non-utf8"},
                                           {O::FifoCompose, "@fifo-compose"},
                                           {O::Module, "@module"},
                                           {O::ModuleTrap, "@module-trap"},
                                           {O::ModuleCrash, "@module-crash"},
                                           {O::ModuleHang, "@module-hang"},
                                           {O::ModuleExit, "@module-exit"},
                                           {O::Vectors, "@vectors"}}};
};
}  // namespace neffbar
