// The CLI in process for the laws of this folder (chart_law_test.cpp,
// diff_law_test.cpp, manifest_law_test.cpp): a command line run through neffbar::cli::run (what main()
// calls) with std::cout and std::cerr caught, compose's options drawn by rapidcheck as
// the words a user types, and a scratch directory per test binary.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "app.h"
#include "run_in_process.h"
#include "neffbar/model/engines/explicit/nauty/nauty_automorphisms.h"
#include "neffbar/model/scenarios/scenario.h"

namespace neffbar::cli::laws {

namespace fs = std::filesystem;

// As main() does: check-configs finds a symmetry with nauty where it has no hints.
[[maybe_unused]] inline const bool kNautyRegistered = (model::use_nauty_automorphisms(), true);

using in_process::Ran;
using in_process::run_cli;

// A directory of its own, removed at the end: in memory where the machine has /dev/shm
// (compose fsyncs every file it writes: on a disk that is most of a case's time).
inline fs::path scratch_root() {
  std::error_code ec;
  return fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path();
}
struct Scratch {
  fs::path dir;
  Scratch() {
    static int n = 0;
    dir = scratch_root() / ("neffbar-law-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  [[nodiscard]] std::string path(const std::string& name) const { return (dir / name).string(); }
};

inline std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
inline void write_bytes(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

// A directory's files by name, with their bytes.
inline std::map<std::string, std::string> tree(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out[e.path().filename().string()] = read_bytes(e.path());
  return out;
}

// One of an enum's CLI names.
template <class E>
std::string any_name() {
  const auto& t = EnumNames<E>::table;
  return std::string(t[*rc::gen::inRange<std::size_t>(0, t.size())].second);
}

// compose's options (every one check takes that the manifest records), small enough
// that each check decides in milliseconds.
struct ComposeOptions {
  std::uint32_t chips = 1, leaders = 1, rounds = 1;
  bool host_cc = false, no_proxy = false;
  std::string fabric = "default", wiring = "per_peer", lowering = "table", roles = "code", host_addrs = "ctx", compare = "ge",
              dec = "one", guarantee = "global";

  [[nodiscard]] std::vector<std::string> words() const {
    std::vector<std::string> w{"--chips", std::to_string(chips), "--leaders", std::to_string(leaders), "--rounds", std::to_string(rounds),
                               "--fabric", fabric, "--wiring", wiring, "--lowering", lowering, "--roles", roles,
                               "--host-addrs", host_addrs, "--compare", compare, "--dec", dec, "--guarantee", guarantee};
    if (host_cc) w.emplace_back("--host-cc");
    if (no_proxy) w.emplace_back("--no-proxy");
    return w;
  }
};

inline ComposeOptions any_compose_options() {
  ComposeOptions o;
  o.chips = *rc::gen::inRange<std::uint32_t>(1, 5);
  o.leaders = *rc::gen::inRange<std::uint32_t>(1, 4);
  o.rounds = *rc::gen::inRange<std::uint32_t>(1, 4);
  o.host_cc = *rc::gen::arbitrary<bool>();
  o.no_proxy = *rc::gen::weightedOneOf<bool>({{3, rc::gen::just(false)}, {1, rc::gen::just(true)}});
  o.fabric = any_name<Fabric>();
  o.wiring = any_name<model::Wiring>();
  o.lowering = any_name<model::Lowering>();
  o.roles = any_name<model::Roles>();
  o.host_addrs = any_name<model::HostAddrs>();
  o.compare = any_name<Compare>();
  o.dec = any_name<model::DecMode>();
  o.guarantee = any_name<model::GuaranteeMode>();
  return o;
}

inline std::string show(const std::vector<std::string>& words) {
  std::string s = "neffbar";
  for (const std::string& w : words) s += " " + w;
  return s;
}

}  // namespace neffbar::cli::laws
