# Walking a JSON array (the manifest lessons/course.json, CMakePresets.json) with string(JSON).
#
# CMake has no loop over a JSON array: every walk needs the array's length, a guard for the empty
# array (foreach(RANGE 0 -1) is an error, not an empty loop) and the last index. This helper does
# that once; a caller writes
#
#   course_json_indices(steps "${lesson_json}" steps)
#   foreach(i IN LISTS steps)
#     string(JSON name GET "${lesson_json}" steps ${i} name)
#   endforeach()
#
# Usable from a project and from a script (cmake -P): it needs nothing but string(JSON).

# Sets `out` to the indices 0..n-1 of the JSON array found in `json` at the member/index path ARGN
# (empty when the array is empty). A missing path stops configuring with string(JSON)'s own error,
# unless OPTIONAL is given first: then a missing member yields no indices, for optional members.
function(course_json_indices out json)
  set(path ${ARGN})
  if(ARGC GREATER 2 AND ARGV2 STREQUAL "OPTIONAL")
    list(REMOVE_AT path 0)
    string(JSON count ERROR_VARIABLE missing LENGTH "${json}" ${path})
    if(missing)
      set(${out} "" PARENT_SCOPE)
      return()
    endif()
  else()
    string(JSON count LENGTH "${json}" ${path})
  endif()
  set(indices "")
  if(count GREATER 0)
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      list(APPEND indices ${i})
    endforeach()
  endif()
  set(${out} "${indices}" PARENT_SCOPE)
endfunction()
