#pragma once

#include <QString>

namespace poolscope {

// Proxy ids may carry credentials (`socks5://user:pass@host:port`). Everything that shows or
// exports a member masks the password through these two functions, unless the user asked to see
// credentials: `socks5://user:****@host:port`.

// One member id. The password is everything between the first ':' after the scheme (or the start)
// and the LAST '@', so an '@' inside the password stays hidden. A user without a password
// (`socks5://user@host:1080`) and an empty password are shown as they are: there is nothing to
// hide. Ids without '@' are returned unchanged.
QString maskCredentials(const QString &member);

// Free text that may mention members (event lines, marker labels, error messages): every
// whitespace-separated word is masked as a member. A word that merely looks like one is masked
// too: masking too much is safe, too little is not.
QString maskCredentialsInText(const QString &text);

} // namespace poolscope
