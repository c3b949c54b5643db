// neffbar: the command line of the reference implementation (core/cli/app.h).
#include "app.h"

int main(int argc, char** argv) { return neffbar::cli::run(argc, argv); }
