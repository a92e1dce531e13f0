#pragma once

#include <QStringList>

class QTextStream;
class QIODevice;

namespace poolscope::cli {

enum ExitCode {
    kExitOk = 0,
    kExitFailure = 1,        // connection or Redis error
    kExitUsage = 2,          // bad command line
    kExitEmptyPool = 3,      // allocate: the pool had no member
    kExitRejectedInput = 65, // seed: some lines were rejected (EX_DATAERR)
};

// Runs one poolscope-cli invocation. arguments excludes the program name.
int run(const QStringList &arguments, QTextStream &out, QTextStream &err, QIODevice &in);

} // namespace poolscope::cli
