// Where a property's inputs come from.  Every generator (draw.h) is written once
// against Source; two drivers feed it:
//   - rapidcheck (rc_driver.h): each choice is a shrinkable rapidcheck pick;
//   - libFuzzer (ByteSource, here): each choice is read from the input bytes, in the
//     spirit of fuzztest's domains and simdjson's FuzzData::getInt<Min,Max>.
// No rapidcheck here: the property fuzz targets link only core/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <span>
#include <type_traits>
#include <vector>

namespace neffbar::props {

class Source {
 public:
  virtual ~Source() = default;
  // A choice in [0, n), n >= 1; 0 is the simplest (what a shrinker moves towards).
  virtual std::uint64_t below(std::uint64_t n) = 0;
  // Any 64-bit value.
  virtual std::uint64_t any64() = 0;

  bool coin() { return below(2) != 0; }
  // In [lo, hi), as rapidcheck's inRange.
  template <class T>
  T in_range(T lo, T hi) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(lo) + static_cast<U>(below(static_cast<U>(hi) - static_cast<U>(lo))));
  }
  template <class T>
  T element(std::initializer_list<T> xs) {
    return xs.begin()[below(xs.size())];
  }
  // Index i with probability weights[i] / sum.
  std::size_t weighted(std::initializer_list<std::uint32_t> weights) {
    std::uint64_t total = 0;
    for (std::uint32_t w : weights) total += w;
    std::uint64_t x = below(total);
    std::size_t i = 0;
    for (std::uint32_t w : weights) {
      if (x < w) return i;
      x -= w;
      ++i;
    }
    return weights.size() - 1;
  }
  // The pick(n) that core/testing/arbitrary_system.h takes.
  std::uint32_t operator()(std::uint32_t n) { return static_cast<std::uint32_t>(below(n)); }
};

// How many input bytes one choice in [0, n) reads: the fewest that can name n - 1.
constexpr std::size_t bytes_for(std::uint64_t n) {
  std::size_t k = 0;
  for (std::uint64_t m = n - 1; m != 0; m >>= 8) ++k;
  return k;
}

// Choices read from fuzz input bytes: a choice in [0, n) reads bytes_for(n) bytes,
// little-endian, modulo n; any64 reads 8.  Once the bytes run out every choice is 0, so
// a short input is a simple one and every input decodes to some typed value.
class ByteSource final : public Source {
 public:
  explicit ByteSource(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  std::uint64_t below(std::uint64_t n) override { return n <= 1 ? 0 : read(bytes_for(n)) % n; }
  std::uint64_t any64() override { return read(8); }
  std::size_t remaining() const { return bytes_.size() - at_; }

 private:
  std::uint64_t read(std::size_t k) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < k && at_ < bytes_.size(); ++i) v |= std::uint64_t{bytes_[at_++]} << (8 * i);
    return v;
  }
  std::span<const std::uint8_t> bytes_;
  std::size_t at_ = 0;
};

// Random choices from a seeded std::mt19937_64 that also writes the bytes a ByteSource
// needs to make the same choices: the seed corpus of the property targets
// (fuzz/make_corpus.cpp), and the test that both decoders agree.
class RecordingSource final : public Source {
 public:
  explicit RecordingSource(std::uint64_t seed) : rng_(seed) {}
  std::uint64_t below(std::uint64_t n) override {
    if (n <= 1) return 0;
    const std::uint64_t x = std::uniform_int_distribution<std::uint64_t>(0, n - 1)(rng_);
    write(x, bytes_for(n));
    return x;
  }
  std::uint64_t any64() override {
    const std::uint64_t x = rng_();
    write(x, 8);
    return x;
  }
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }

 private:
  void write(std::uint64_t x, std::size_t k) {
    for (std::size_t i = 0; i < k; ++i) bytes_.push_back(static_cast<std::uint8_t>(x >> (8 * i)));
  }
  std::mt19937_64 rng_;
  std::vector<std::uint8_t> bytes_;
};

}  // namespace neffbar::props
