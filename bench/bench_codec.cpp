// Codec: decode / encode vs memcpy of 0x128 bytes (the floor); the JSON log vs a
// logger written the way libncfw does it (snprintf per field: the baseline); the
// JSON reader.
#include <benchmark/benchmark.h>

#include "measured.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "neffbar/json_log.h"

namespace {

using neffbar::bench::measured;

using namespace neffbar;

ConfigBytes sample() {
  std::mt19937 rng(7);
  ConfigBytes b;
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  return b;
}
const ConfigBytes kBytes = sample();

void BM_Codec_Memcpy_Floor(benchmark::State& state) {
  ConfigBytes out;
  for (auto _ : state) {
    measured([&] {
      benchmark::DoNotOptimize(kBytes.data());
      std::memcpy(out.data(), kBytes.data(), out.size());
      benchmark::DoNotOptimize(out);
    });
  }
}
void BM_Codec_Decode(benchmark::State& state) {
  BarrierConfigs c;
  for (auto _ : state) {
    measured([&] {
      benchmark::DoNotOptimize(kBytes.data());
      decode_into(kBytes, c);
      benchmark::DoNotOptimize(c);
    });
  }
}
void BM_Codec_Encode(benchmark::State& state) {
  const BarrierConfigs c = *decode(kBytes);
  ConfigBytes out;
  for (auto _ : state) {
    measured([&] {
      benchmark::DoNotOptimize(&c);
      encode_into(c, out);
      benchmark::DoNotOptimize(out);
    });
  }
}

// The baseline: one snprintf per field into a fixed buffer, as ncfw_log_* do.
std::size_t snprintf_logger(const ConfigBytes& b, char* buf, std::size_t cap) {
  const BarrierConfigs c = *decode(b);
  const HostBarrierConfig h = decode_host(b);
  std::size_t n = 0;
  auto put = [&](const char* fmt, auto... args) {
    const int w = std::snprintf(buf + n, cap - n, fmt, args...);
    if (w > 0) n += static_cast<std::size_t>(w);
  };
  auto addr = [&](const char* key, std::uint64_t v) {
    put("\"%s\": { \"addr\": { \"soc_addr\": \"0x%016" PRIX64 "\" } },\n", key, v);
  };
  put("{\n\"execute_device_barrier\": \"%p\",\n", reinterpret_cast<void*>(std::uintptr_t{c.execute_device_barrier}));
  put("\"host_barrier\": {\n");
  addr("barrier_start", h.barrier_start);
  addr("barrier_done", h.barrier_done);
  put("},\n\"device_barrier\": {\n\"barrier_step_config\": [\n");
  for (const StepConfig& s : c.device_barrier.barrier_step_config) {
    put("{ \"m2s_val\": %hu,\n\"s2m_val\": %hu,\n\"barrier_sema\": [\n", s.m2s_val, s.s2m_val);
    for (std::uint64_t a : s.barrier_sema) put("{ \"addr\": { \"soc_addr\": \"0x%016" PRIX64 "\" } },\n", a);
    put("],\n\"target_sema_val\": [");
    for (std::uint32_t t : s.target_sema_val) put("%u, ", t);
    put("] },\n");
  }
  put("],\n");
  for (std::uint64_t a : c.device_barrier.dma_sync_sema) addr("dma_sync_sema", a);
  addr("m2s_tail_ptr", c.device_barrier.dma_apb_bcast.m2s_tail_ptr);
  addr("s2m_tail_ptr", c.device_barrier.dma_apb_bcast.s2m_tail_ptr);
  put("\"mask\": %u,\n", c.device_barrier.dma_apb_bcast.mask);
  addr("start_network_proxy", c.device_barrier.start_network_proxy);
  put("\"dma_sync_sema_value\": %u,\n\"tdrbp_low\": %u,\n\"tdrbp_high\": %u,\n\"desc_count\": %u,\n",
      c.device_barrier.dma_sync_sema_value, c.device_barrier.tdrbp_low, c.device_barrier.tdrbp_high,
      c.device_barrier.desc_count);
  put("\"dma_engines_bitmap\": %hu,\n\"queue_id\": %hhu\n} }\n", c.device_barrier.dma_engines_bitmap,
      c.device_barrier.queue_id);
  return n;
}

void BM_Log_Snprintf_Baseline(benchmark::State& state) {
  char buf[8192];
  for (auto _ : state) {
    measured([&] {
      benchmark::DoNotOptimize(kBytes.data());
      benchmark::DoNotOptimize(snprintf_logger(kBytes, buf, sizeof buf));
    });
  }
}
void BM_Log_Writer(benchmark::State& state) {
  std::string out;
  out.reserve(4096);
  for (auto _ : state) {
    measured([&] {
      out.clear();
      write_log(kBytes, LogMode::Default, out);
      benchmark::DoNotOptimize(out.data());
    });
  }
}
void BM_Log_Reader(benchmark::State& state) {
  const std::string text = write_log(kBytes, LogMode::Full);
  for (auto _ : state) {
    measured([&] {
      const Result<ConfigBytes> r = read_log(text);
      benchmark::DoNotOptimize(r.ok());
    });
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

BENCHMARK(BM_Codec_Memcpy_Floor);
BENCHMARK(BM_Codec_Decode);
BENCHMARK(BM_Codec_Encode);
BENCHMARK(BM_Log_Snprintf_Baseline);
BENCHMARK(BM_Log_Writer);
BENCHMARK(BM_Log_Reader);

}  // namespace
