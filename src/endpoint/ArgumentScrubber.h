#pragma once

namespace poolscope {

// Overwrites, in place, the secrets among the process's arguments, so `ps` and /proc/PID/cmdline
// no longer show them: the password of every Redis URL ("redis://user:secret@host" becomes
// "redis://user:******@host") and the value of every option that is a secret
// (`--sentinel-password X` or `--sentinel-password=X`; options stop at "--"). Call it once the
// arguments have been copied and parsed. Returns how many secrets were hidden.
int scrubPasswordsFromArguments(int argc, char **argv);

} // namespace poolscope
