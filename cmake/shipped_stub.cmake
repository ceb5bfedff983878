# Build step of cmake/CourseShippedStub.cmake: writes each of FILES (names) of exercises/LESSON/ as
# git HEAD has it into OUT_DIR, or the working copy's file when HEAD does not have it. A copy whose
# content did not change is left alone (no recompilation).
# cmake -DGIT=git -DSOURCE_DIR=<course> -DLESSON=<id> -DOUT_DIR=<dir> -DFILES=<a.cu;b.cu> -P this
file(MAKE_DIRECTORY ${OUT_DIR})
foreach(name IN LISTS FILES)
  set(path exercises/${LESSON}/${name})
  set(fresh ${OUT_DIR}/${name}.new)
  execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} show HEAD:./${path} OUTPUT_FILE ${fresh}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    if(NOT EXISTS ${SOURCE_DIR}/${path})
      file(REMOVE ${fresh})
      message(FATAL_ERROR "${path} is in neither git HEAD nor the working copy: restore it with "
                          "`git checkout HEAD -- ${path}`, then build again")
    endif()
    file(COPY_FILE ${SOURCE_DIR}/${path} ${fresh})  # not committed yet: the working copy is the stub
  endif()
  file(COPY_FILE ${fresh} ${OUT_DIR}/${name} ONLY_IF_DIFFERENT)
  file(REMOVE ${fresh})
endforeach()
