# Build step of cmake/CourseShippedStub.cmake: writes each of FILES (names) of exercises/LESSON/ as
# the course shipped it into OUT_DIR: as of the newest commit that changed the lesson's own course
# files (lessons/LESSON/, solutions/LESSON/, grader/lessons/LESSON/), the rule of `grader reset`
# (grader/driver/workflow.cpp), so that a student's own commits of exercises/ are not taken for the
# stub; HEAD when no commit changed them; the working copy's file when that commit does not have
# it (a lesson being written). A copy whose content did not change is left alone (no
# recompilation).
# cmake -DGIT=git -DSOURCE_DIR=<course> -DLESSON=<id> -DOUT_DIR=<dir> -DFILES=<a.cu;b.cu> -P this
execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} log -1 --format=%H HEAD -- lessons/${LESSON}
                        solutions/${LESSON} grader/lessons/${LESSON}
                RESULT_VARIABLE rc OUTPUT_VARIABLE commit ERROR_QUIET
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0 OR NOT commit)
  set(commit HEAD)
endif()
file(MAKE_DIRECTORY ${OUT_DIR})
foreach(name IN LISTS FILES)
  set(path exercises/${LESSON}/${name})
  set(fresh ${OUT_DIR}/${name}.new)
  execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} show ${commit}:./${path} OUTPUT_FILE ${fresh}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    if(NOT EXISTS ${SOURCE_DIR}/${path})
      file(REMOVE ${fresh})
      message(FATAL_ERROR "${path} is in neither git (${commit}) nor the working copy: restore "
                          "it with `git checkout HEAD -- ${path}`, then build again")
    endif()
    file(COPY_FILE ${SOURCE_DIR}/${path} ${fresh})  # not committed yet: the working copy is the stub
  endif()
  file(COPY_FILE ${fresh} ${OUT_DIR}/${name} ONLY_IF_DIFFERENT)
  file(REMOVE ${fresh})
endforeach()
