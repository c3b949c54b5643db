// Every property's law (props/README.md), one header per subject below, each written
// once: a typed input, its generator (written against Source, so rapidcheck and the fuzz
// targets draw the same values) and its law, a function of the input, of the
// implementation under test and of a Judge.  The real implementations are plugged in by
// the registry (registry.h); teeth_test.cpp plugs in deliberately broken ones, where the
// law must fail at the check it names. No rapidcheck here: the property fuzz targets
// link only core/.
#pragma once

#include "codec_laws.h"
#include "composition_laws.h"
#include "context_laws.h"
#include "semaphore_laws.h"
#include "engine_laws.h"
#include "budget_cut_laws.h"
#include "config_diff_laws.h"
#include "composed_files_laws.h"
#include "scenario_laws.h"
#include "chart_laws.h"
#include "grid_laws.h"
