#include "codec_cmds.h"

#include <unistd.h>

#include <charconv>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "diff_cmd.h"
#include "exit.h"
#include "input.h"
#include "neffbar/arch.h"
#include "neffbar/hex.h"
#include "neffbar/json_log.h"
#include "neffbar/lint.h"
#include "neffbar/search.h"

namespace neffbar::cli {
namespace {

std::optional<std::int64_t> parse_int(const std::string& s) {
  std::int64_t v = 0;
  const char* b = s.data();
  const char* e = s.data() + s.size();
  int base = 10;
  bool neg = false;
  if (b != e && *b == '-') { neg = true; ++b; }
  if (e - b > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X')) { b += 2; base = 16; }
  const auto [ptr, ec] = std::from_chars(b, e, v, base);
  if (b == e || ec != std::errc{} || ptr != e) return std::nullopt;
  return neg ? -v : v;
}

void print_table(Fabric f, bool raw) {
  const TableImage& t = table_for(f);
  std::cout << "fabric " << fabric_name(f) << "  barrier_step_sizes {" << int{t.sizes[0]} << ","
            << int{t.sizes[1]} << "," << int{t.sizes[2]} << "," << int{t.sizes[3]} << "}\n";
  for (int s = 0; s < kSteps; ++s) {
    std::cout << "step " << s << ":";
    if (raw) {
      for (int i = 0; i < 0x20; ++i) {
        const std::uint8_t b = t.steps[static_cast<std::size_t>(s * 0x20 + i)];
        std::cout << (i % 8 == 0 ? "  " : " ") << kHexDigits[b >> 4] << kHexDigits[b & 0xF];
      }
    } else {
      for (int i = 0; i < kEntries; ++i) {
        const TableEntry e = entry_at(t, s, i);
        const bool active = i < t.sizes[static_cast<std::size_t>(s)];
        std::cout << "  [" << i << "] " << (active ? "" : "(") << type_name(e.type) << "/" << op_name(e.op)
                  << (active ? "" : ")");
      }
    }
    std::cout << '\n';
  }
}

// decode: a config to the JSON log.
void add_decode(CLI::App& app, Run& run) {
  auto* cmd = app.add_subcommand("decode", "Decode a 0x128-byte config to the libncfw JSON log");
  // No --arch: the four NCFW generations read the same 0x128-byte layout (core/neffbar/README.md
  // "Arch", OBSERVED), so the log is the same whichever generation is meant.
  auto opts = std::make_shared<std::tuple<bool, std::string>>(false, "-");
  cmd->add_flag("--full", std::get<0>(*opts), "Full log: add total_desc_n, pad and reserved (lossless)");
  cmd->add_option("FILE", std::get<1>(*opts), "Config image (0x128 bytes), - for stdin")->capture_default_str();
  cmd->callback([opts, &run] {
    const auto& [full, file] = *opts;
    const Result<ConfigBytes> bytes = read_config(file);
    if (!bytes) return void(run.exit_code = fail_input(bytes.error(), file));
    std::cout << write_log(*bytes, full ? LogMode::Full : LogMode::Default);
    run.exit_code = code(Exit::Ok);
  });
}

// encode: a JSON log back to the image.
void add_encode(CLI::App& app, Run& run) {
  auto* cmd = app.add_subcommand("encode", "Encode a JSON log (default or full) back to the 0x128-byte image");
  auto file = std::make_shared<std::string>("-");
  cmd->add_option("FILE", *file, "JSON log, - for stdin")->capture_default_str();
  cmd->callback([file, &run] {
    if (run.to_stdout() && isatty(STDOUT_FILENO) != 0) {
      std::cerr << "neffbar: refusing to write 0x128 binary bytes to a terminal; redirect stdout "
                   "(neffbar encode in.json > out.bin) or use -o FILE\n";
      return void(run.exit_code = code(Exit::Usage));
    }
    const Result<std::string> text = read_json_text(*file);
    if (!text) return void(run.exit_code = fail_input(text.error(), *file));
    const Result<ConfigBytes> bytes = read_log(*text);
    if (!bytes) return void(run.exit_code = fail_input(bytes.error(), *file));
    std::cout.write(reinterpret_cast<const char*>(bytes->data()), static_cast<std::streamsize>(bytes->size()));
    run.exit_code = code(Exit::Ok);
  });
}

// table: an algorithm table.
void add_table(CLI::App& app, Run& run) {
  auto* cmd = app.add_subcommand("table", "Print an algorithm table (typed, or the raw .rodata bytes)");
  auto opts = std::make_shared<std::pair<std::string, bool>>("default", false);
  cmd->add_option("--fabric", opts->first, enum_choices<Fabric>())->capture_default_str();
  cmd->add_flag("--raw", opts->second, "Raw little-endian bytes as in libnrt .rodata");
  cmd->callback([opts, &run] {
    const Result<Fabric> f = parse_fabric(opts->first);
    if (!f) return void(run.exit_code = fail_usage(f.error(), "--fabric"));
    print_table(*f, opts->second);
    run.exit_code = code(Exit::Ok);
  });
}

// search: which op and lane a type has in a step.
void add_search(CLI::App& app, Run& run) {
  auto* cmd = app.add_subcommand("search", "search_barr_type_in_step: which op and lane a type has in a step");
  struct Opts { std::string fabric, type, step; bool faithful = false; };
  auto o = std::make_shared<Opts>();
  cmd->add_option("--fabric", o->fabric, enum_choices<Fabric>())->required();
  cmd->add_option("TYPE", o->type, "barrier_type_t name (INTRA_CHIP ...) or number")->required();
  cmd->add_option("STEP", o->step, "step (any integer; outside 0..3 is 'not found')")->required();
  cmd->add_flag("--faithful", o->faithful, "Use the raw-byte scan instead of the fast table");
  cmd->callback([o, &run] {
    const Result<Fabric> f = parse_fabric(o->fabric);
    if (!f) return void(run.exit_code = fail_usage(f.error(), "--fabric"));
    std::int64_t type = 0;
    if (const auto n = parse_int(o->type)) {
      type = *n;
    } else if (const Result<BarrierType> t = parse_type(o->type)) {
      type = static_cast<std::int64_t>(*t);
    } else {
      return void(run.exit_code = fail_usage(t.error(), "TYPE"));
    }
    const auto step = parse_int(o->step);
    if (!step) {
      return void(run.exit_code = fail_usage(Error{Errc::InvalidArgument, "STEP", "an integer", "'" + o->step + "'"}));
    }
    const auto hit = o->faithful ? search_faithful(type, *step, *f) : search_fast(type, *step, *f);
    if (hit) {
      std::cout << "op=" << op_name(hit->op) << " index=" << hit->index << '\n';
    } else {
      std::cout << "not found\n";
    }
    run.exit_code = code(Exit::Ok);
  });
}

// lint: suspicious configs.
void add_lint(CLI::App& app, Run& run) {
  auto* cmd = app.add_subcommand("lint", "Warn about suspicious configs (exit 3 when anything is found)");
  auto file = std::make_shared<std::string>("-");
  cmd->add_option("FILE", *file, "Config image (0x128 bytes), - for stdin")->capture_default_str();
  cmd->callback([file, &run] {
    const Result<ConfigBytes> bytes = read_config(*file);
    if (!bytes) return void(run.exit_code = fail_input(bytes.error(), *file));
    const auto warnings = lint(*bytes);
    for (const LintWarning& w : warnings) std::cout << w.line() << '\n';
    run.exit_code = code(warnings.empty() ? Exit::Ok : Exit::LintFound);
  });
}

}  // namespace

void add_codec_commands(CLI::App& app, Run& run, std::string_view only) {
  add_commands(app, run, only,
               {{"decode", add_decode}, {"encode", add_encode}, {"table", add_table}, {"search", add_search}, {"lint", add_lint}, {"diff", add_diff}});
}

}  // namespace neffbar::cli
