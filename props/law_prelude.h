// What every law header shares: the library, test support and driver-neutral pieces
// (draw.h, judge.h, engines_agree.h) the laws are written against, and the composer
// the registry plugs in.  No rapidcheck here: the property fuzz targets link only core/.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "draw.h"
#include "engines_agree.h"
#include "judge.h"
#include "neffbar/config_diff.h"
#include "neffbar/json_log.h"
#include "neffbar/model/engines/common/compiled.h"
#include "neffbar/model/engines/explicit/search.h"
#include "neffbar/model/engines/explicit/state_set.h"
#include "neffbar/model/frontend/faults.h"
#include "neffbar/model/engines/oracle.h"
#include "neffbar/model/engines/persistent/persistent.h"
#include "neffbar/model/scenarios/composed_files.h"
#include "neffbar/model/scenarios/scenario.h"
#include "neffbar/search.h"
#include "testing/arbitrary_system.h"
#include "testing/reference_report.h"
#include "testing/reference_checker.h"
#include "testing/reference_semaphores.h"

namespace neffbar::props {

using namespace neffbar::model;
using Composer = std::function<Result<Composition>(const Topology&)>;
inline Result<Composition> real_compose(const Topology& t) { return compose(t); }

// Every input struct says so with kPropertyInput (rc_driver.h prints them field by
// field in counterexamples).

}  // namespace neffbar::props
