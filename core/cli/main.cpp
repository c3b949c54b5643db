// neffbar: the command line of the reference implementation (core/cli/app.h).
#include "app.h"
#include "neffbar/model/engines/explicit/nauty/nauty_automorphisms.h"

int main(int argc, char** argv) {
  neffbar::model::use_nauty_automorphisms();  // check-configs' symmetry without hints
  return neffbar::cli::run(argc, argv);
}
