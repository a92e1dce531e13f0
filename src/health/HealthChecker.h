#pragma once

#include "health/HealthTypes.h"

#include <atomic>

namespace poolscope {

// One round of checks: every member through its own proxy to options.target. Blocks until the
// round is done (call it from a worker thread, never from the GUI thread). One thread drives
// every check as a transfer on one libcurl multi handle; at most options.concurrency checks in
// flight and at most options.ratePerSecond started per second. Members that are not checkable
// are reported as such without any packet sent. stop (optional) ends the round within about
// 50 ms: checks in flight are cut and, like those not yet started, reported as not checked
// ("interrupted").
CheckRound runCheckRound(const QList<QByteArray> &members, const CheckOptions &options,
                         const std::atomic<bool> *stop = nullptr);

// libcurl and OpenSSL (transport::initialiseOpenSsl) set up on the main thread, first thing in
// main(): their configuration is then read there, not on the first worker thread to check or to
// open TLS.
// Done once, whoever calls first (the check rounds call it too); false if either failed.
bool initialiseNetworkLibraries();

} // namespace poolscope
