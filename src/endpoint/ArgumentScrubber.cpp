#include "endpoint/ArgumentScrubber.h"

#include <cstring>

namespace poolscope {

namespace {

// Options whose value is a secret; both programs take these.
constexpr const char *kSecretOptions[] = {"--sentinel-password"};

bool hideUrlPassword(char *argument) {
    char *scheme = std::strstr(argument, "://");
    if (!scheme)
        return false;
    char *userInfo = scheme + 3;
    // The user info ends at the last '@' (passwords may hold unencoded '@' or ':').
    char *at = std::strrchr(userInfo, '@');
    if (!at)
        return false;
    char *colon = static_cast<char *>(std::memchr(userInfo, ':', size_t(at - userInfo)));
    if (!colon || colon + 1 >= at)
        return false;
    std::memset(colon + 1, '*', size_t(at - colon - 1));
    return true;
}

bool hideAll(char *text) {
    const size_t length = std::strlen(text);
    std::memset(text, '*', length);
    return length > 0;
}

} // namespace

int scrubPasswordsFromArguments(int argc, char **argv) {
    int hidden = 0;
    bool options = true;
    for (int i = 1; i < argc; ++i) {
        char *argument = argv[i];
        if (options && std::strcmp(argument, "--") == 0) {
            options = false;
            continue;
        }
        bool secretOption = false;
        if (options) {
            for (const char *name : kSecretOptions) {
                const size_t length = std::strlen(name);
                if (std::strncmp(argument, name, length) != 0)
                    continue;
                if (argument[length] == '=') {
                    hidden += hideAll(argument + length + 1);
                    secretOption = true;
                } else if (argument[length] == '\0' && i + 1 < argc) {
                    hidden += hideAll(argv[++i]); // the value, whatever it looks like
                    secretOption = true;
                }
            }
        }
        if (!secretOption)
            hidden += hideUrlPassword(argument);
    }
    return hidden;
}

} // namespace poolscope
