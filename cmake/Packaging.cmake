# CPack: `cpack -G DEB` in the build directory (or scripts/package.sh) turns what cmake --install
# puts under /usr into poolscope_<version>_<arch>.deb. The shared libraries' packages come from
# dpkg-shlibdeps; what it cannot see is named here: the Qt SVG plugins that draw the icon, and
# redis-server, which the dashboard starts when no server is named.
set(CPACK_PACKAGE_NAME poolscope)
set(CPACK_PACKAGE_VENDOR "poolscope")
set(CPACK_PACKAGE_CONTACT "poolscope maintainers <poolscope@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "dashboard and CLI for Redis least-used proxy pools")
set(CPACK_PACKAGE_DESCRIPTION
    "poolscope watches a Redis sorted set used as a least-used proxy pool (member = proxy, \
score = allocation count): it charts every member's count over time, shows the pool's \
fairness, seeds members from proxy lists, evicts and restores them with an explicit restore \
policy, and runs test allocations through the same Lua script the workers use. Without a \
server named, the dashboard starts a private redis-server with a demo pool. poolscope-cli \
offers the same operations on the command line.")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/poolscope/poolscope")
set(CPACK_PACKAGE_INSTALL_DIRECTORY poolscope)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # poolscope_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libssh-4 (SSH tunnels) and libcurl4 (health checks) are also found by dpkg-shlibdeps; named
# here so that the dependencies stay explicit even if the libraries are ever linked statically.
# libcurl's symbols date from 7.66, but the checks use options from 7.85 (src/CMakeLists.txt).
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "redis-server, libqt6svg6, libssh-4, libcurl4 (>= 7.85), libqt6sql6-sqlite")
# The languages (docs/translations.md): Qt's own Chinese strings, and fonts for Uyghur (DejaVu),
# Gurmukhi and Chinese. Recommended, not required: the dashboard runs without them (English needs
# none, a missing font shows boxes), and apt installs recommendations by default.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "qt6-translations-l10n, fonts-dejavu-core, fonts-lohit-guru, fonts-wqy-microhei | fonts-noto-cjk")
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
include(CPack)
