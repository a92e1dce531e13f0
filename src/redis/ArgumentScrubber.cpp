#include "redis/ArgumentScrubber.h"

#include <cstring>

namespace poolscope {

int scrubPasswordsFromArguments(int argc, char **argv) {
    int hidden = 0;
    for (int i = 1; i < argc; ++i) {
        char *argument = argv[i];
        char *scheme = std::strstr(argument, "://");
        if (!scheme)
            continue;
        char *userInfo = scheme + 3;
        // The user info ends at the last '@' (passwords may hold unencoded '@' or ':').
        char *at = std::strrchr(userInfo, '@');
        if (!at)
            continue;
        char *colon = static_cast<char *>(std::memchr(userInfo, ':', size_t(at - userInfo)));
        if (!colon || colon + 1 >= at)
            continue;
        std::memset(colon + 1, '*', size_t(at - colon - 1));
        ++hidden;
    }
    return hidden;
}

} // namespace poolscope
