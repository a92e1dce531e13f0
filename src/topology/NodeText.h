#pragma once

#include "endpoint/Endpoint.h"

#include <QString>

namespace poolscope::topology {

// "host:port", with brackets for IPv6 ("[::1]:26379"): for messages and as a map key. Shared by
// the Sentinel resolver and the cluster router.
QString nodeText(const NodeAddress &node);

} // namespace poolscope::topology
