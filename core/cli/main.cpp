// neffbar: the command line of the reference implementation (core/cli/app.h).
#include <csignal>

#include "app.h"
#include "neffbar/model/engines/explicit/nauty/nauty_automorphisms.h"

int main(int argc, char** argv) {
  // A file past `ulimit -f` is then a write that fails (EFBIG, "File too large"): the
  // one error line, exit 1 and every output taken back, instead of a silent death.
  std::signal(SIGXFSZ, SIG_IGN);
  neffbar::model::use_nauty_automorphisms();  // check-configs' symmetry without hints
  return neffbar::cli::run(argc, argv);
}
