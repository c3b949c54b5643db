// The laws of composed_files: composed configs as files decide as the topology does:
// each a typed input, its generator and its law (properties.h says how they are written
// and plugged in).
#pragma once

#include "law_prelude.h"

namespace neffbar::props {

// ------------------------------------------------------------ composed as files -----
// compose -> files -> read back is the composition compose made, and deciding it is what
// deciding the topology gives: the same verdict, kinds, global line, broke-in-round and
// counterexample.
struct ComposedFilesInput {
  static constexpr bool kPropertyInput = true;
  Topology topo;
  Hypotheses hyp;
  GuaranteeMode guarantee = GuaranteeMode::Global;
  bool logs = false;
};
inline ComposedFilesInput draw_composed_files(Source& s) {
  ComposedFilesInput in;
  in.topo = draw_topology(s, 8, 3);
  in.topo.wiring = s.element({Wiring::PerPeer, Wiring::Counting});
  in.topo.lowering = s.element({Lowering::Table, Lowering::ArriveWait, Lowering::Hierarchical});
  // Each reading other than the default one time in four: most of them deadlock.
  const auto other = [&s] { return s.weighted({3, 1}) == 1; };
  in.hyp.compare = other() ? Compare::Gt : Compare::Ge;
  in.hyp.dec = other() ? DecMode::Target : DecMode::One;
  in.hyp.roles = other() ? Roles::Narrative : Roles::Code;
  in.hyp.host_addrs = other() ? HostAddrs::Config : HostAddrs::Ctx;
  in.hyp.proxy = !other();
  in.guarantee = s.element({GuaranteeMode::Global, GuaranteeMode::Declared});
  in.logs = s.weighted({7, 1}) == 1;  // 32 JSON logs cost more than the rest of a case
  return in;
}

struct FilesImpl {
  std::function<Result<std::vector<NamedFile>>(const Scenario&, bool)> write = composed_files;
  std::function<Result<Manifest>(std::string_view)> read = read_manifest;
  std::function<Result<Composition>(const Manifest&, std::span<const std::string>)> make = composition_of;
};

inline void composed_files_decide_as_the_topology(const ComposedFilesInput& in, const FilesImpl& impl, Judge& j) {
  Scenario s;
  s.topo = in.topo;
  s.hyp = in.hyp;
  s.run.check.guarantee = in.guarantee;
  s.run.check.max_states = j.thorough() ? 2'000'000 : 200'000;
  Result<std::vector<NamedFile>> files = impl.write(s, in.logs);
  j.require(files.ok(), "compose writes its files");
  const auto named = [&](std::string_view name) -> NamedFile* {
    for (NamedFile& f : *files) {
      if (f.name == name) return &f;
    }
    return nullptr;
  };
  const NamedFile* manifest = named(kManifestName);
  j.require(manifest != nullptr, "a manifest is written");
  const Result<Manifest> m = impl.read(manifest->bytes);
  j.require(m.ok(), "the manifest reads back");
  std::vector<std::string> bytes;
  for (const ManifestEntry& e : m->entries) {
    NamedFile* f = named(e.file);
    j.require(f != nullptr, "every file the manifest names is written");
    bytes.push_back(std::move(f->bytes));  // read once: the file's name stays
    j.require(!e.log.has_value() || (in.logs && named(*e.log) != nullptr), "a log is written when asked, beside its image");
  }
  j.require(m->topo == in.topo && m->hyp == in.hyp && m->guarantee == in.guarantee, "the manifest holds the options");
  Result<Composition> comp = impl.make(*m, bytes);
  j.require(comp.ok(), "the files make a composition");
  const Result<Composition> direct = compose(in.topo);
  j.require(direct.ok() && comp->topo == direct->topo && comp->configs == direct->configs &&
                comp->guarantee == direct->guarantee && comp->contexts.size() == direct->contexts.size(),
            "the files make the composition they came from");
  for (std::size_t c = 0; c < comp->contexts.size(); ++c) {
    j.require(comp->contexts[c].bytes == direct->contexts[c].bytes, "the files make the composition they came from");
  }
  // The same composition decides the same (one lowering, deterministic engines): both
  // decided where the judge is thorough (rapidcheck, the ctest replay, a sample of the
  // fuzz inputs), which keeps the fuzz target past 1,000 executions a second.
  if (!j.thorough()) return;
  Scenario from_files = s;
  from_files.composition = std::move(*comp);
  const Result<ScenarioResult> a = run_scenario(s), b = run_scenario(from_files);
  j.require(a.ok() && b.ok(), "both decide");
  const CheckResult &x = a->result, &y = b->result;
  j.assume(x.verdict != Verdict::Budget && y.verdict != Verdict::Budget);
  j.require(y.verdict == x.verdict && y.found_mask == x.found_mask, "the same verdict and kinds from the files");
  j.require(y.global == x.global && y.broke_in_round == x.broke_in_round, "the same global line and broke-in-round");
  j.require(y.cex.has_value() == x.cex.has_value() && (!x.cex || (y.cex->trace.size() == x.cex->trace.size() && y.cex->what == x.cex->what)),
            "the same counterexample");
  j.tags(verdict_name(x.verdict), in.topo.chips * in.topo.leaders > 8 ? "more than 8 leaders" : "up to 8 leaders");
}

}  // namespace neffbar::props
