// core/testing/ is test support: the tests, properties and fuzz targets reach it through
// the neffbar_testing target (core/CMakeLists.txt), which defines
// NEFFBAR_TESTING_SUPPORT.  The library's users link neffbar_core, whose include root is
// core/ (its headers are "neffbar/..."), so the path alone would let them include these
// headers; this check refuses them at compile time.  ctest's testing_boundary shows it.
#pragma once

#ifndef NEFFBAR_TESTING_SUPPORT
#error "core/testing/ is test support, not part of neffbar_core: link the neffbar_testing target"
#endif
