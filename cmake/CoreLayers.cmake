# The core's libraries and the rule between them: each library may include the headers of the
# libraries it uses, directly or through them, and no others (docs/ARCHITECTURE.md).
#
# In a CMakeLists.txt (src/CMakeLists.txt declares the table, bottom first):
#   poolscope_core_library(<name> [USES <library>...] [SOURCES <file>...] [EXCLUDE <regex>]
#                          [RESOURCES <qrc>...] [PUBLIC_LINKS <target>...]
#                          [PRIVATE_LINKS <target>...])
#     A static library poolscope_<name> from the folder <name> (all .cpp and .h in it and its
#     subfolders, less those matching EXCLUDE), or from SOURCES (relative to the folder of the
#     calling CMakeLists.txt), plus Qt RESOURCES. USES names libraries declared before it; they
#     are linked PUBLIC, so what they use comes along.
#   poolscope_check_core_layers()
#     After the table: writes it to <build>/core-layers.cmake and adds the build step that scans
#     every core file's includes (target poolscope_core_layers, run before any core library is
#     compiled, again whenever a core file changes).
#
# As a script, the check itself (the build step and the tests run it so):
#   cmake -DPOOLSCOPE_CORE_LAYERS=<build>/core-layers.cmake
#         [-DPOOLSCOPE_CORE_LAYERS_EXTRA=<library>:<file>] -P cmake/CoreLayers.cmake
#   EXTRA checks one more file as if it belonged to <library> (the tests plant one there).
# A forbidden include fails with one line per include: file, line, the header, whose library
# it is, and what the including library may use.

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
    cmake_minimum_required(VERSION 3.22) # the policies of the project, before any function
endif()

function(poolscope_core_library name)
    cmake_parse_arguments(PARSE_ARGV 1 arg "" "EXCLUDE"
                          "USES;SOURCES;RESOURCES;PUBLIC_LINKS;PRIVATE_LINKS")
    get_property(declared GLOBAL PROPERTY POOLSCOPE_CORE_LIBRARIES)
    if(name IN_LIST declared)
        message(FATAL_ERROR "core library ${name} is declared twice")
    endif()
    set(closure)
    foreach(used IN LISTS arg_USES)
        if(NOT used IN_LIST declared)
            message(FATAL_ERROR "core library ${name} uses ${used}, which is not declared before "
                                "it: a library may use only libraries below it (declare them first)")
        endif()
        get_property(below GLOBAL PROPERTY POOLSCOPE_CORE_${used}_CLOSURE)
        list(APPEND closure ${used} ${below})
    endforeach()
    list(REMOVE_DUPLICATES closure)

    if(arg_SOURCES)
        list(TRANSFORM arg_SOURCES PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/ OUTPUT_VARIABLE sources)
    else()
        file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${name}/*.cpp
             ${CMAKE_CURRENT_SOURCE_DIR}/${name}/*.h)
    endif()
    if(arg_EXCLUDE)
        list(FILTER sources EXCLUDE REGEX "${arg_EXCLUDE}")
    endif()
    if(NOT sources)
        message(FATAL_ERROR "core library ${name} has no sources")
    endif()

    qt_add_library(poolscope_${name} STATIC ${sources} ${arg_RESOURCES})
    if(arg_RESOURCES)
        set_target_properties(poolscope_${name} PROPERTIES AUTORCC ON)
    endif()
    target_include_directories(poolscope_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
    list(TRANSFORM arg_USES PREPEND poolscope_ OUTPUT_VARIABLE used_targets)
    target_link_libraries(poolscope_${name} PUBLIC Qt6::Core ${used_targets} ${arg_PUBLIC_LINKS}
                                            PRIVATE ${arg_PRIVATE_LINKS})

    set_property(GLOBAL APPEND PROPERTY POOLSCOPE_CORE_LIBRARIES ${name})
    set_property(GLOBAL PROPERTY POOLSCOPE_CORE_${name}_CLOSURE ${closure})
    set_property(GLOBAL PROPERTY POOLSCOPE_CORE_${name}_SOURCES ${sources})
endfunction()

function(poolscope_check_core_layers)
    get_property(libraries GLOBAL PROPERTY POOLSCOPE_CORE_LIBRARIES)
    set(table "# Written by poolscope_check_core_layers() (cmake/CoreLayers.cmake).\n")
    string(APPEND table "set(POOLSCOPE_CORE_ROOT \"${PROJECT_SOURCE_DIR}\")\n")
    string(APPEND table "set(POOLSCOPE_CORE_INCLUDE_ROOT \"${CMAKE_CURRENT_SOURCE_DIR}\")\n")
    string(APPEND table "set(POOLSCOPE_CORE_LIBRARIES ${libraries})\n")
    set(all_sources)
    foreach(library IN LISTS libraries)
        get_property(closure GLOBAL PROPERTY POOLSCOPE_CORE_${library}_CLOSURE)
        get_property(sources GLOBAL PROPERTY POOLSCOPE_CORE_${library}_SOURCES)
        string(APPEND table "set(POOLSCOPE_CORE_${library}_CLOSURE ${closure})\n")
        string(APPEND table "set(POOLSCOPE_CORE_${library}_SOURCES \"${sources}\")\n")
        list(APPEND all_sources ${sources})
    endforeach()
    set(table_file ${CMAKE_BINARY_DIR}/core-layers.cmake)
    # Rewritten only when it changes, so a configure alone does not rerun the check.
    file(CONFIGURE OUTPUT ${table_file} CONTENT "${table}" @ONLY)
    set_property(GLOBAL PROPERTY POOLSCOPE_CORE_LAYERS_TABLE ${table_file})

    set(stamp ${CMAKE_BINARY_DIR}/core-layers.checked)
    add_custom_command(
        OUTPUT ${stamp}
        COMMAND ${CMAKE_COMMAND} -DPOOLSCOPE_CORE_LAYERS=${table_file} -P
                ${PROJECT_SOURCE_DIR}/cmake/CoreLayers.cmake
        COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
        DEPENDS ${all_sources} ${table_file} ${PROJECT_SOURCE_DIR}/cmake/CoreLayers.cmake
        COMMENT "Checking that each core library includes only the libraries below it"
        VERBATIM)
    add_custom_target(poolscope_core_layers DEPENDS ${stamp})
    foreach(library IN LISTS libraries)
        add_dependencies(poolscope_${library} poolscope_core_layers)
    endforeach()
endfunction()

# The check: reads the table, scans each file's includes, fails on any forbidden one.
function(_poolscope_core_layer_check)
    include(${POOLSCOPE_CORE_LAYERS})
    if(POOLSCOPE_CORE_LAYERS_EXTRA MATCHES "^([a-z_]+):(.+)$")
        list(APPEND POOLSCOPE_CORE_${CMAKE_MATCH_1}_SOURCES ${CMAKE_MATCH_2})
    endif()
    # Which library each core header belongs to, by its include path ("pool/PoolKeys.h").
    foreach(library IN LISTS POOLSCOPE_CORE_LIBRARIES)
        foreach(file IN LISTS POOLSCOPE_CORE_${library}_SOURCES)
            file(RELATIVE_PATH header ${POOLSCOPE_CORE_INCLUDE_ROOT} ${file})
            if(header MATCHES "\\.h$" AND NOT header MATCHES "^\\.\\./")
                if(DEFINED "owner_${header}")
                    message(FATAL_ERROR "${header} belongs to two core libraries: "
                                        "${owner_${header}} and ${library}")
                endif()
                set("owner_${header}" ${library})
            endif()
        endforeach()
    endforeach()

    set(problems)
    set(files 0)
    foreach(library IN LISTS POOLSCOPE_CORE_LIBRARIES)
        set(allowed ${library} ${POOLSCOPE_CORE_${library}_CLOSURE})
        list(JOIN POOLSCOPE_CORE_${library}_CLOSURE ", " may_use)
        if(may_use STREQUAL "")
            set(may_use "no other core library")
        endif()
        foreach(file IN LISTS POOLSCOPE_CORE_${library}_SOURCES)
            math(EXPR files "${files} + 1")
            file(READ ${file} content)
            string(REGEX MATCHALL "(^|\n)[ \t]*#[ \t]*include[ \t]*[<\"][^>\"\n]+[>\"]" includes
                   "${content}")
            file(RELATIVE_PATH shown ${POOLSCOPE_CORE_ROOT} ${file})
            foreach(include IN LISTS includes)
                string(REGEX MATCH "([<\"])([^>\"\n]+)[>\"]" _ "${include}")
                set(bracket ${CMAKE_MATCH_1})
                set(path ${CMAKE_MATCH_2})
                if(NOT path MATCHES "/")
                    continue() # the file's own folder, or a generated file (.moc, ui_*.h)
                endif()
                set(owner "${owner_${path}}")
                if(owner STREQUAL "" AND bracket STREQUAL "<")
                    continue() # a system or third-party header
                endif()
                if(owner STREQUAL "")
                    set(why "which is no core library's header (the dashboard's or a test's?): "
                            "poolscope_${library} may use ${may_use}")
                elseif(NOT owner IN_LIST allowed)
                    set(why "a header of poolscope_${owner}, which poolscope_${library} does not "
                            "link: it may use ${may_use}")
                else()
                    continue()
                endif()
                string(FIND "${content}" "${include}" at)
                string(SUBSTRING "${content}" 0 ${at} before)
                string(REGEX MATCHALL "\n" newlines "${before}")
                list(LENGTH newlines line)
                if(include MATCHES "^\n")
                    math(EXPR line "${line} + 2") # the newline the match starts with, and 1-based
                else()
                    math(EXPR line "${line} + 1")
                endif()
                string(CONCAT why ${why})
                list(APPEND problems "${shown}:${line}: error: includes \"${path}\", ${why}")
            endforeach()
        endforeach()
    endforeach()
    if(problems)
        # One line each, as a compiler reports (message(FATAL_ERROR) would rewrap them).
        foreach(problem IN LISTS problems)
            message(NOTICE "${problem}")
        endforeach()
        list(LENGTH problems count)
        message(FATAL_ERROR "${count} include(s) point up or sideways in the core. Move the code to "
                            "the library where it belongs; if the header's library is really "
                            "below, add it to USES in src/CMakeLists.txt (docs/ARCHITECTURE.md).")
    endif()
    list(LENGTH POOLSCOPE_CORE_LIBRARIES count)
    message(STATUS "core layers: ${files} files of ${count} libraries include only below")
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
    if(NOT POOLSCOPE_CORE_LAYERS)
        message(FATAL_ERROR "usage: cmake -DPOOLSCOPE_CORE_LAYERS=<build>/core-layers.cmake -P "
                            "${CMAKE_CURRENT_LIST_FILE}")
    endif()
    _poolscope_core_layer_check()
endif()
