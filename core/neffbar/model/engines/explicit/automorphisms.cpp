#include "neffbar/model/engines/explicit/automorphisms.h"

#include <atomic>

namespace neffbar::model {
namespace {
std::atomic<const AutomorphismFinder*> registered{nullptr};
}  // namespace

const AutomorphismFinder* default_automorphisms() { return registered.load(); }
void set_default_automorphisms(const AutomorphismFinder* finder) { registered.store(finder); }

}  // namespace neffbar::model
