# Unity batches: several sources compiled as one translation unit. A C++ pass source spends most of its compile time
# parsing tvm-ffi's headers and optimising the templates it instantiates, once per unit: four sources as one unit
# cost 14.7 CPU-s where they cost 27.6 apart (docs/building.md). CMake's own UNITY_BUILD is not used: its unity files
# include each member by its absolute path, so that no two copies of the checkout (the checkout copies the tests
# build, a wheel's build directory) would share a compiler cache entry. The batch files written here include each
# member by its path relative to the project root, which is an include directory of the batch files only; the
# batch files lie in the build directory, whose path relative to the source tree (CCACHE_BASEDIR) is the same in
# every copy. Every member must therefore be free of names that collide with another member's at file scope
# (static functions, anonymous namespaces, `using` declarations): each source gives its internal helpers names of its
# own.

option(TILELANG_UNITY "compile the C++ libraries' sources in unity batches (OFF: each source alone)" ON)

# tilelang_unity_batches(<out> <name> <max> <source>...): the sources to compile in place of <source>...: batch
# files ${CMAKE_BINARY_DIR}/unity/<name>_<group><n>.cc. A source's group is the word before the first underscore
# of its file name when at least <max>/2 sources share that word (cuda_*, loop_*, tile_*), else "misc"; a group
# of more than <max> sources is split, in name order, into the fewest batches of at most <max>. Adding or editing a
# source thus recompiles the batches of its group only, and the batch one edited source recompiles stays small.
function(tilelang_unity_batches out name max)
  if(NOT TILELANG_UNITY)
    set(${out} ${ARGN} PARENT_SCOPE)
    return()
  endif()
  set(groups)
  foreach(source IN LISTS ARGN)
    get_filename_component(stem "${source}" NAME_WE)
    string(REGEX REPLACE "_.*" "" word "${stem}")
    list(APPEND groups "${word}")
    list(APPEND "members_${word}" "${source}")
  endforeach()
  list(REMOVE_DUPLICATES groups)
  set(members_misc)
  set(kept)
  math(EXPR least "${max} / 2")
  foreach(word IN LISTS groups)
    list(LENGTH "members_${word}" count)
    if(count LESS least OR word STREQUAL "misc")
      list(APPEND members_misc ${members_${word}})
    else()
      list(APPEND kept "${word}")
    endif()
  endforeach()
  if(members_misc)
    list(SORT members_misc)
    list(APPEND kept misc)
  endif()
  set(batches)
  foreach(word IN LISTS kept)
    list(LENGTH "members_${word}" count)
    math(EXPR parts "(${count} + ${max} - 1) / ${max}")
    math(EXPR last "${parts} - 1")
    foreach(part RANGE ${last})
      math(EXPR first "${part} * ${count} / ${parts}")
      math(EXPR end "(${part} + 1) * ${count} / ${parts}")
      math(EXPR length "${end} - ${first}")
      list(SUBLIST "members_${word}" ${first} ${length} members)
      set(batch "${CMAKE_BINARY_DIR}/unity/${name}_${word}${part}.cc")
      _tilelang_write_batch("${batch}" ${members})
      list(APPEND batches "${batch}")
    endforeach()
  endforeach()
  set_source_files_properties(${batches} PROPERTIES INCLUDE_DIRECTORIES "${PROJECT_SOURCE_DIR}")
  set(${out} ${batches} PARENT_SCOPE)
endfunction()

# Writes the batch file only when its text changes: a reconfiguration leaves the batches' objects up to date.
function(_tilelang_write_batch batch)
  set(text "// A unity batch written by cmake/Unity.cmake: its members, by their paths in the source tree.\n")
  foreach(source IN LISTS ARGN)
    file(RELATIVE_PATH member "${PROJECT_SOURCE_DIR}" "${source}")
    string(APPEND text "#include \"${member}\"\n")
  endforeach()
  set(old "")
  if(EXISTS "${batch}")
    file(READ "${batch}" old)
  endif()
  if(NOT old STREQUAL text)
    file(WRITE "${batch}" "${text}")
  endif()
endfunction()
