// What `neffbar compose` writes (core/neffbar/model/README.md, "Composed configs as
// files"): one 0x128-byte image per leader, optionally its JSON log, each chip's
// driver-context blob, and manifest.json naming every file's chip, leader and role with
// the options the topology was composed under.  The manifest is the one reader's key to
// such a directory: diff and check-configs take it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "neffbar/enum_names.h"
#include "neffbar/error.h"
#include "neffbar/model/frontend/composer.h"
#include "neffbar/model/scenarios/scenario.h"

namespace neffbar::model {

inline constexpr std::string_view kManifestName = "manifest.json";
inline constexpr std::string_view kManifestFormat = "neffbar-compose/1";

// What a file of the directory holds.
enum class FileRole : std::uint8_t { Leader, DriverContext };

}  // namespace neffbar::model

namespace neffbar {
template <>
struct EnumNames<model::FileRole> {
  static constexpr NameTable<model::FileRole, 2> table{
      {{model::FileRole::Leader, "leader"}, {model::FileRole::DriverContext, "driver_context"}}};
};
}  // namespace neffbar

namespace neffbar::model {

// One file of the manifest.  A leader's image has its leader index and declared
// guarantee (the leaders, as chip*leaders+leader, whose arrival its DEPART follows); a
// driver context has neither.
struct ManifestEntry {
  std::string file;
  FileRole role = FileRole::Leader;
  std::uint32_t chip = 0;
  std::optional<std::uint32_t> leader;
  std::optional<std::string> log;  // the image's JSON log beside it, when written
  std::vector<std::uint32_t> guarantee;
  bool operator==(const ManifestEntry&) const = default;
};

struct Manifest {
  Topology topo;
  Hypotheses hyp;
  GuaranteeMode guarantee = GuaranteeMode::Global;
  std::vector<ManifestEntry> entries;  // leaders in c*L+l order, then the contexts by chip
  bool operator==(const Manifest&) const = default;
};

// A file to write: its name in the directory and its bytes.
struct NamedFile {
  std::string name;
  std::string bytes;
};

// "chip07_leader2.bin" and "chip07_context.bin": zero-padded so that names sort as chips.
std::string leader_image_name(std::uint32_t chip, std::uint32_t leader);
std::string context_name(std::uint32_t chip);

// The files of scenario `s`'s topology composed (its hypotheses and guarantee mode go to
// the manifest only: they do not change the bytes): the images, the logs when `logs`,
// the contexts, and manifest.json last.  Errors are the composer's (the topology's ranges).
Result<std::vector<NamedFile>> composed_files(const Scenario& s, bool logs);

// The composition the files of manifest `m` make (what check-configs decides): `bytes[i]`
// is the content of m.entries[i].file.  Each leader's image and declared guarantee, each
// chip's driver context, the manifest's topology.  An error names the file or the chip
// whose context is missing.
Result<Composition> composition_of(const Manifest& m, std::span<const std::string> bytes);

std::string manifest_json(const Manifest& m);
// The manifest of `text`; an error names the key ($.images[3].chip) and what it wanted.
// Checks that the images form the topology: every (chip, leader) once, within range.
Result<Manifest> read_manifest(std::string_view text);

std::string_view name(FileRole r);

}  // namespace neffbar::model
