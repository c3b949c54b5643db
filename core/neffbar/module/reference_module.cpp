#include "neffbar/module/reference_module.h"

#include <algorithm>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "neffbar/codec.h"
#include "neffbar/json_log.h"
#include "neffbar/search.h"
#include "neffbar/semaphore.h"
#include "neffbar/tables.h"

namespace neffbar {

// The ABI's numbers are core's, not copies that could drift.
static_assert(NEFFBAR_CONFIG_SIZE == kConfigSize && NEFFBAR_TABLE_SIZE == kTableBytes + kSteps);
static_assert(NEFFBAR_INC == static_cast<int>(Prim::Inc) && NEFFBAR_INC_VAL == static_cast<int>(Prim::IncVal) &&
              NEFFBAR_WAIT_GE_AND_DEC == static_cast<int>(Prim::WaitGeAndDec) &&
              NEFFBAR_WAIT_GE == static_cast<int>(Prim::WaitGe) &&
              NEFFBAR_WAIT_EQ_AND_INC == static_cast<int>(Prim::WaitEqAndInc) &&
              NEFFBAR_WAIT_EQ_AND_CLEAR == static_cast<int>(Prim::WaitEqAndClear));

namespace {

std::optional<Fabric> fabric_of(std::uint32_t f) {
  if (f == NEFFBAR_FABRIC_DEFAULT) return Fabric::Default;
  if (f == NEFFBAR_FABRIC_SWITCH) return Fabric::Switch;
  return std::nullopt;
}

std::int32_t decode_log(const std::uint8_t* image, std::size_t image_len, std::int32_t full, char* out,
                        std::size_t cap, std::size_t* len) {
  if (image_len != kConfigSize) return NEFFBAR_REFUSED;
  ConfigBytes bytes{};
  std::copy_n(image, kConfigSize, bytes.begin());
  const std::string text = write_log(bytes, full != 0 ? LogMode::Full : LogMode::Default);
  *len = text.size();
  if (text.size() > cap) return NEFFBAR_TOO_SMALL;
  std::memcpy(out, text.data(), text.size());
  return NEFFBAR_OK;
}

std::int32_t encode_log(const char* log, std::size_t log_len, std::uint8_t* out) {
  const auto bytes = read_log(std::string_view(log, log_len));
  if (!bytes) return NEFFBAR_REFUSED;
  std::copy(bytes->begin(), bytes->end(), out);
  return NEFFBAR_OK;
}

std::int32_t search(std::uint32_t fabric, std::int64_t type, std::int64_t step, std::uint32_t* op,
                    std::int32_t* lane) {
  const auto f = fabric_of(fabric);
  if (!f) return NEFFBAR_REFUSED;
  const auto hit = search_fast(type, step, *f);
  if (!hit) return NEFFBAR_NOT_FOUND;
  *op = hit->op;
  *lane = hit->index;
  return NEFFBAR_OK;
}

std::int32_t table_bytes(std::uint32_t fabric, std::uint8_t* out) {
  const auto f = fabric_of(fabric);
  if (!f) return NEFFBAR_REFUSED;
  const TableImage& t = table_for(*f);
  std::copy(t.steps.begin(), t.steps.end(), out);
  std::copy(t.sizes.begin(), t.sizes.end(), out + t.steps.size());
  return NEFFBAR_OK;
}

std::int32_t sema_apply(std::int32_t* file, std::size_t n, const neffbar_sema_op* op, std::uint32_t compare) {
  if (op->sema >= n || op->prim > NEFFBAR_WAIT_EQ_AND_CLEAR || compare > NEFFBAR_COMPARE_GT) return NEFFBAR_REFUSED;
  const SemaOp s{static_cast<Prim>(op->prim), op->sema, op->value, op->dec};
  switch (apply(std::span<std::int32_t>(file, n), s, compare == NEFFBAR_COMPARE_GE ? Compare::Ge : Compare::Gt)) {
    case Outcome::Done: return NEFFBAR_OK;
    case Outcome::Blocked: return NEFFBAR_BLOCKED;
    case Outcome::Overflow: return NEFFBAR_OVERFLOW;
  }
  return NEFFBAR_REFUSED;
}

constexpr neffbar_module kReference{NEFFBAR_MODULE_ABI_VERSION, "neffbar reference", decode_log, encode_log,
                                    search, table_bytes, sema_apply};

}  // namespace

const neffbar_module& reference_module() { return kReference; }

}  // namespace neffbar
