// `grader dev new NN_name`: a lesson skeleton that builds and whose stub fails every step.
#pragma once

#include <iosfwd>
#include <string>

namespace driver {

/// Writes lesson `id` from the templates in `templates_dir` (grader/templates/lesson/: every
/// file, with @ID@, @NN@, @NAME@ and @TITLE@ replaced in paths and contents) into `source_dir`:
/// lessons/<id>/, exercises/<id>/, solutions/<id>/ and grader/lessons/<id>/ (hidden tests and a
/// wrong kernel), and puts its entry into lessons/course.json (course::put_lesson_entry), in place
/// of a planned entry of the same id (whose stage, title and summary it keeps). Never overwrites:
/// when any of those folders exists, nothing is written.
/// @return 0 done; 2 usage error (bad id, a folder exists, the lesson is ready or its number is
///   taken); 5 the templates or the manifest cannot be read or written. Messages go to `out`.
int dev_new(const std::string& id, const std::string& source_dir, const std::string& templates_dir,
            std::ostream& out);

}  // namespace driver
