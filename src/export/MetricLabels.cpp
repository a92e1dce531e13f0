#include "export/MetricLabels.h"

#include "text/CredentialMask.h"
#include "text/MemberText.h"

namespace poolscope {

std::string metricLabelValue(const QByteArray &bytes) {
    return memberText(bytes).toStdString();
}

std::string metricMemberLabel(const QByteArray &member) {
    return maskCredentials(memberText(member)).toStdString();
}

} // namespace poolscope
