// Compiled by ctest's testing_boundary as a user of neffbar_core would compile it:
// include root core/, without the neffbar_testing target.  It must fail (testing_only.h).
#include "testing/reference_checker.h"

int main() { return 0; }
