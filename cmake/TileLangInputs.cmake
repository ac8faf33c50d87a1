# The inputs of each C++ library, as glob patterns relative to the project root ("<dir>/**/<name>" matches at any
# depth below <dir>). Stated once: CMakeLists.txt compiles what they match, and cmake/BuildRecord.cmake writes what
# they matched (with SHA-256s) next to the built library, where tilelang.cpp compares it with a checkout's files to
# tell a stale library.

# libtilelang_passes.so: the hand-written engines and the sources rendered from the specs.
set(TILELANG_PASSES_INPUTS
    src/transform/*.h src/transform/*.cc
    generated/cpp/**/*.h generated/cpp/**/*.cc)
# libtt_emu.so: the emulator runtime, the host/kernel API headers it implements, the SFPU calls of the op map and
# the default API profile (both rendered from the specs). The per-profile kernel headers are not compiled into it: the emulator's kernel
# JIT reads them at run time.
set(TT_EMU_INPUTS
    src/emulator/src/*.cpp src/emulator/src/*.hpp
    src/emulator/include/**/*.hpp src/emulator/include/**/*.h
    generated/emulator/include/tt_emu/*.hpp generated/emulator/profile.cmake)

# tilelang_glob(<out> <root> <pattern>...): the sorted absolute paths of the files the patterns match.
function(tilelang_glob out root)
  set(files)
  foreach(pattern IN LISTS ARGN)
    if(CMAKE_SCRIPT_MODE_FILE)
      set(watch)
    else()
      set(watch CONFIGURE_DEPENDS)  # a file added, renamed or removed re-runs the configuration
    endif()
    if(pattern MATCHES "^(.*)/\\*\\*/([^/]*)$")
      file(GLOB_RECURSE found ${watch} LIST_DIRECTORIES false "${root}/${CMAKE_MATCH_1}/${CMAKE_MATCH_2}")
    else()
      file(GLOB found ${watch} LIST_DIRECTORIES false "${root}/${pattern}")
    endif()
    list(APPEND files ${found})
  endforeach()
  list(REMOVE_DUPLICATES files)
  list(SORT files)
  set(${out} ${files} PARENT_SCOPE)
endfunction()
