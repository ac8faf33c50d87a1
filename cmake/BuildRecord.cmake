# Writes the record of what a library was built from, run after every build (CMakeLists.txt):
#   cmake -DROOT=<project root> -DINPUTS=<name of a list in TileLangInputs.cmake> -DLIBRARY=<built library>
#         [-DFACTS=<key>=<value>|...] -P BuildRecord.cmake
# writes <built library>.inputs.
# Lines: `fact <key> <value>` (e.g. the tvm-ffi version built against), `scan <pattern>` (the input patterns) and
# `file <sha256> <path>` (every file they matched). The file is rewritten only when its text changes.
include("${CMAKE_CURRENT_LIST_DIR}/TileLangInputs.cmake")

set(OUT "${LIBRARY}.inputs")
get_filename_component(name "${LIBRARY}" NAME)
set(text "# The inputs ${name} was built from (cmake/BuildRecord.cmake); tilelang.cpp compares them with the checkout.\n")
if(FACTS)
  string(REPLACE "|" ";" facts "${FACTS}")
  foreach(fact IN LISTS facts)
    string(REGEX REPLACE "^([^=]*)=(.*)$" "fact \\1 \\2\n" line "${fact}")
    string(APPEND text "${line}")
  endforeach()
endif()
foreach(pattern IN LISTS ${INPUTS})
  string(APPEND text "scan ${pattern}\n")
endforeach()
tilelang_glob(files "${ROOT}" ${${INPUTS}})
foreach(path IN LISTS files)
  file(SHA256 "${path}" digest)
  file(RELATIVE_PATH relative "${ROOT}" "${path}")
  string(APPEND text "file ${digest} ${relative}\n")
endforeach()

set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
