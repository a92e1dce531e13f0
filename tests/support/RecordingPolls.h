// Shared by the recording tests: a made-up poll whose values follow from its arguments.
#pragma once

#include "recording/RecordingTypes.h"

#include <QByteArray>

namespace poolscope::testing {

inline RecordingPoll makePoll(qint64 timeMs, int members, qint64 base) {
    RecordingPoll poll;
    poll.timeMs = timeMs;
    for (int i = 0; i < members; ++i)
        poll.members.append({"member-" + QByteArray::number(i), double(base + (i * 7) % 13)});
    poll.min = double(base);
    poll.max = double(base + 12);
    poll.median = double(base + 6);
    poll.total = double(base) * members;
    poll.memberCount = members;
    return poll;
}

} // namespace poolscope::testing
