// The strict JSON reader (strict_json.h).
#include "neffbar/strict_json.h"

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

namespace neffbar {
namespace {

using json = nlohmann::json;

struct DuplicateKey {
  std::string path;
};
struct TooDeep {
  std::string path;
};
// Any other refusal of the parser: where it stopped and what it said, without the
// library's "[json.exception.parse_error.101] " tag.
struct Refused {
  std::size_t byte;
  std::string what;
};

std::string untagged(std::string_view what) {
  if (what.starts_with("[json.exception.")) {
    if (const std::size_t end = what.find("] "); end != std::string_view::npos) what.remove_prefix(end + 2);
  }
  return std::string(what);
}

// nlohmann-json's own DOM builder, with every key checked against the keys before it in
// its object and the nesting bounded.  A SAX wrapper, not a parser callback: the
// callback parser costs about a fifth more per log.
class StrictDom {
 public:
  StrictDom(json& root, std::size_t max_depth) : dom_(root), max_depth_(max_depth) {
    frames_.reserve(8);  // the log nests 5 deep and holds about 60 keys
    keys_.reserve(64);
    arena_.reserve(1024);
  }

  bool null() { return value(dom_.null()); }
  bool boolean(bool v) { return value(dom_.boolean(v)); }
  bool number_integer(json::number_integer_t v) { return value(dom_.number_integer(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return value(dom_.number_unsigned(v)); }
  bool number_float(json::number_float_t v, const json::string_t& s) { return value(dom_.number_float(v, s)); }
  bool string(json::string_t& v) { return value(dom_.string(v)); }
  bool binary(json::binary_t& v) { return value(dom_.binary(v)); }
  bool start_object(std::size_t n) {
    open(false);
    return dom_.start_object(n);
  }
  bool start_array(std::size_t n) {
    open(true);
    return dom_.start_array(n);
  }
  bool end_object() { return close(dom_.end_object()); }
  bool end_array() { return close(dom_.end_array()); }
  bool key(json::string_t& k) {
    Frame& f = frames_[depth_ - 1];
    for (std::size_t i = f.first_key; i < keys_.size(); ++i) {
      if (key_at(i) == k) throw DuplicateKey{path() + "." + k};
    }
    keys_.push_back(Span{static_cast<std::uint32_t>(arena_.size()), static_cast<std::uint32_t>(k.size())});
    arena_ += k;
    return dom_.key(k);
  }
  template <class Exception>
  bool parse_error(std::size_t at, const std::string& /*token*/, const Exception& e) {
    throw Refused{at, untagged(e.what())};
  }

 private:
  struct Frame {
    bool array;
    std::size_t index;      // arrays: the element being parsed
    std::size_t first_key;  // objects: where its keys start in keys_
  };
  void open(bool array) {
    // Refused before the DOM holds it: a value max_depth deep is the deepest built, so
    // destroying or printing it never recurses further.
    if (depth_ == max_depth_) throw TooDeep{path()};
    if (frames_.size() == depth_) frames_.emplace_back();
    frames_[depth_++] = Frame{array, 0, keys_.size()};
  }
  bool close(bool ok) {
    const std::size_t first = frames_[--depth_].first_key;
    if (first < keys_.size()) arena_.resize(keys_[first].at);
    keys_.resize(first);
    return value(ok);
  }
  bool value(bool ok) {
    if (depth_ > 0 && frames_[depth_ - 1].array) ++frames_[depth_ - 1].index;
    return ok;
  }
  // The path of the value being read ($.a[2].b): every open level but the innermost
  // object's key, which key() adds.
  [[nodiscard]] std::string path() const {
    std::string p = "$";
    for (std::size_t d = 0; d + 1 < depth_; ++d) {
      p += frames_[d].array ? "[" + std::to_string(frames_[d].index) + "]" : "." + std::string(key_at(frames_[d + 1].first_key - 1));
    }
    return p;
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  std::size_t max_depth_;
  std::vector<Frame> frames_;
  std::size_t depth_ = 0;
  // The keys of every open object, innermost last, as spans of one arena (a string per
  // key would cost an allocation for each long one).
  struct Span {
    std::uint32_t at, size;
  };
  [[nodiscard]] std::string_view key_at(std::size_t i) const {
    return std::string_view(arena_).substr(keys_[i].at, keys_[i].size);
  }
  std::vector<Span> keys_;
  std::string arena_;
};

}  // namespace

Result<nlohmann::json> parse_strict_json(std::string_view text, std::size_t max_depth) {
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
    return Error{Errc::BadJson, "byte " + std::to_string(nul), "valid JSON", "a NUL byte"};
  }
  try {
    json j;
    StrictDom sax(j, max_depth);
    json::sax_parse(text, &sax);
    return j;
  } catch (const DuplicateKey& d) {
    return Error{Errc::BadJson, d.path, "each key once", "a duplicate key"};
  } catch (const TooDeep& d) {
    return Error{Errc::BadJson, d.path, "JSON nested at most " + std::to_string(max_depth) + " deep", "deeper nesting"};
  } catch (const Refused& r) {
    return Error{Errc::BadJson, "byte " + std::to_string(r.byte), "valid JSON", r.what};
  } catch (const std::exception& e) {  // e.g. bad_alloc: nothing escapes core/
    return Error{Errc::BadJson, "input", "", untagged(e.what())};
  }
}

}  // namespace neffbar
