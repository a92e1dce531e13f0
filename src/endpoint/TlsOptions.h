#pragma once

#include <QString>

namespace poolscope {

// TLS settings of an endpoint (rediss://). Verification is on unless `insecure`: the server's
// chain against the system CAs (or `caFile` alone when given) and its name against `serverName`
// (or the URL's host). The paths are the user's files; their contents are read at connect time.
struct TlsOptions {
    bool enabled = false;  // rediss://
    QString caFile;        // PEM bundle of trusted CAs; empty: the system's CAs
    QString serverName;    // name to verify and to send as SNI; empty: the URL's host
    QString certFile;      // client certificate (PEM), for servers that ask for one
    QString keyFile;       // its private key (PEM); empty: the key is in certFile
    bool insecure = false; // no chain or name check at all (--tls-insecure)

    bool operator==(const TlsOptions &) const = default;
};

} // namespace poolscope
