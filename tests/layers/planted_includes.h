// Planted in poolscope_pool by the core_layers_refused test (tests/CMakeLists.txt), never
// compiled: the layer check must refuse the first and the last include, by file and line.
#pragma once

#include "monitor/PoolMonitor.h" // above pool
#include "topology/HashSlot.h"   // below pool: allowed
#include "chart/ChartPanel.h"    // the dashboard's, not the core's
