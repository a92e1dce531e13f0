#pragma once

#include <QString>

namespace poolscope {

// Proxy ids may carry credentials (`socks5://user:pass@host:port`). Everything that shows or
// exports a member masks them through these two functions, unless the user asked to see
// credentials.
//
// The masked form keeps members apart: the hidden part is replaced by `****~` and six hex digits
// of the SHA-256 of what was hidden, so `socks5://u:old@h:1080` and `socks5://u:new@h:1080` show
// as `socks5://u:****~cba06b@h:1080` and `socks5://u:****~11507a@h:1080` (two Prometheus
// series, two rows), and the same member always masks to the same text. Six digits tell a
// password apart from another without giving away more than 24 bits about it.

// One member id. The password is everything between the first ':' after the scheme (or the start)
// and the LAST '@', so an '@' inside the password stays hidden. A user name without a password
// (`socks5://TOKEN@host:1080`) is often the secret itself (an API token) and is masked whole:
// `socks5://****~hhhhhh@host:1080`. An empty password (`user:@host`) has nothing to hide and is
// shown as it is. Ids without '@' and ids already masked are returned unchanged.
QString maskCredentials(const QString &member);

// Free text that may mention members (event lines, marker labels, error messages): every
// whitespace-separated word is masked as a member. A word that merely looks like one is masked
// too: masking too much is safe, too little is not.
QString maskCredentialsInText(const QString &text);

} // namespace poolscope
