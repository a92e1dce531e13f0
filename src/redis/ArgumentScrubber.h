#pragma once

namespace poolscope {

// Overwrites, in place, the password of every Redis URL among the process's arguments
// ("redis://user:secret@host" becomes "redis://user:******@host"), so `ps` and
// /proc/PID/cmdline no longer show it. Call it once the arguments have been copied and parsed.
// Returns how many passwords were hidden.
int scrubPasswordsFromArguments(int argc, char **argv);

} // namespace poolscope
