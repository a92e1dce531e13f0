#include "topology/NodeText.h"

namespace poolscope::topology {

QString nodeText(const NodeAddress &node) {
    const QString host = node.host.contains(u':') ? u'[' + node.host + u']' : node.host;
    return host + u':' + QString::number(node.port);
}

} // namespace poolscope::topology
