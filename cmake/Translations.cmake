# The dashboard's translations (docs/translations.md). One .ts source per shipped language in
# resources/translations/, made and kept current by lupdate from the files listed below (target
# update_translations), compiled by lrelease and embedded at :/i18n/poolscope_<code>.qm.
# English is the source language; its .ts holds only the plural forms of %n messages
# (lupdate -pluralonly). poolscope-cli links none of this: its text stays English.
set(POOLSCOPE_LANGUAGES zh_CN ug pa eo)
set(POOLSCOPE_TS_DIR ${PROJECT_SOURCE_DIR}/resources/translations)

# What lupdate reads: the dashboard, the session below it, the texts of the monitor, the restore
# policies and the proxy-list parser that it shows (only those
# wrapped in translate()), the alert texts it shows, and the strings
# of Qt's own dialogs that Qt ships no translation of for some of our languages (qt_strings.cpp).
file(GLOB_RECURSE POOLSCOPE_I18N_SOURCES CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/app/gui/*.cpp ${PROJECT_SOURCE_DIR}/app/gui/*.h
     ${PROJECT_SOURCE_DIR}/src/session/*.cpp ${PROJECT_SOURCE_DIR}/src/session/*.h
     ${PROJECT_SOURCE_DIR}/src/monitor/*.cpp ${PROJECT_SOURCE_DIR}/src/pool/PoolTypes.cpp
     ${PROJECT_SOURCE_DIR}/src/proxylist/*.cpp
     ${PROJECT_SOURCE_DIR}/src/alerts/*.cpp ${PROJECT_SOURCE_DIR}/src/alerts/*.h
     ${PROJECT_SOURCE_DIR}/src/notify/*.cpp ${PROJECT_SOURCE_DIR}/src/notify/*.h
     ${PROJECT_SOURCE_DIR}/ui/*.ui)
list(APPEND POOLSCOPE_I18N_SOURCES ${POOLSCOPE_TS_DIR}/qt_strings.cpp)
list(SORT POOLSCOPE_I18N_SOURCES)
# The same list for lupdate run by hand and by the tests (lupdate @FILE); rewritten only when it
# changes, so what depends on it is not rebuilt for nothing.
list(JOIN POOLSCOPE_I18N_SOURCES "\n" i18n_sources_lines)
set(POOLSCOPE_I18N_SOURCES_LIST ${PROJECT_BINARY_DIR}/i18n/sources.lst)
file(CONFIGURE OUTPUT ${POOLSCOPE_I18N_SOURCES_LIST} CONTENT "${i18n_sources_lines}\n" @ONLY)
# No line numbers in the .ts files: every edit of a source would change them. The include paths
# let lupdate find each class's namespace (the context "poolscope::MainWindow", as at run time).
set(POOLSCOPE_LUPDATE_OPTIONS -locations none -no-ui-lines)
set(POOLSCOPE_LUPDATE_INCLUDES -I ${PROJECT_SOURCE_DIR}/app/gui -I ${PROJECT_SOURCE_DIR}/src)

# Adds the translations to TARGET (the widget library: the dashboard and the GUI tests get them)
# and the update_translations target that runs lupdate over the sources.
function(poolscope_add_translations target english_target)
    set(ts_files)
    foreach(language IN LISTS POOLSCOPE_LANGUAGES)
        list(APPEND ts_files ${POOLSCOPE_TS_DIR}/poolscope_${language}.ts)
    endforeach()
    set(english_ts ${POOLSCOPE_TS_DIR}/poolscope_en.ts)
    qt_add_lupdate(${target} TS_FILES ${ts_files} SOURCES ${POOLSCOPE_I18N_SOURCES}
                   OPTIONS ${POOLSCOPE_LUPDATE_OPTIONS})
    qt_add_lupdate(${english_target} TS_FILES ${english_ts} SOURCES ${POOLSCOPE_I18N_SOURCES}
                   OPTIONS ${POOLSCOPE_LUPDATE_OPTIONS} -pluralonly)
    # Unfinished translations stay out of the program until they are marked done.
    qt_add_lrelease(${target} TS_FILES ${english_ts} ${ts_files} QM_FILES_OUTPUT_VARIABLE qm_files
                    OPTIONS -silent -nounfinished)
    qt_add_resources(${target} poolscope_translations PREFIX /i18n
                     BASE ${CMAKE_CURRENT_BINARY_DIR} FILES ${qm_files})
endfunction()
