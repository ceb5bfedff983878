#!/usr/bin/env python3
"""Checks that a device image holds the normal build's machine code (cmake/CourseDeviceImage.cmake).

A lesson built with device images compiles each kernel file twice in different ways: its shipped
stub as the host stubs' object (CMake's own CUDA compile rule) and every variant's file with
`nvcc -cubin` (the image's custom command, flags assembled by the module). Grading is only fair
if both give the same machine code. For the lessons named (default: 07_transpose and 11_scan, a
plain one and one that compiles CUB's headers; the flags are the same for every lesson, so two
keep the test to seconds; `all` checks every lesson with a stub variant's image), this recompiles
the host stubs' object with its exact command from compile_commands.json plus `-keep`, and
requires the cubin nvcc kept to equal the stub variant's image byte for byte. It also requires
every executable that loads images (the lesson's grade_<id>* and the bench, when built) to be
linked with the wrapped runtime calls (grader/harness/src/device_image.cpp's __wrap_ functions):
without them it would run the stub's empty kernels.

    tools/check_device_image.py BUILD_DIR [LESSON,LESSON,... | all]

Exit 0 when every image matches, 1 on a difference (both paths printed), 0 with the skip mark
COURSE-TEST-SKIPPED when the build has no device images (several architectures, no git checkout,
COURSE_DEVICE_IMAGES=OFF), so that ctest reports the test as skipped.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path


def main() -> int:
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().split("\n\n")[2].strip(), file=sys.stderr)
        return 2
    build = Path(sys.argv[1]).resolve()
    chosen = sys.argv[2] if len(sys.argv) == 3 else "07_transpose,11_scan"
    lessons = None if chosen == "all" else set(chosen.split(","))
    commands = json.loads((build / "compile_commands.json").read_text())
    checked = 0
    failed = 0
    for entry in commands:
        match = re.search(r"/shipped-stubs/([^/]+)/([^/]+)\.cu$", entry["file"])
        if not match or "host_stubs" not in entry.get("output", entry["command"]):
            continue
        lesson, name = match.groups()
        if lessons is not None and lesson not in lessons:
            continue
        image = build / "device-images" / f"grade_{lesson}__stub" / f"{name}.cubin"
        if not image.exists():
            continue
        argv = shlex.split(entry["command"])
        if Path(argv[0]).name == "ccache":  # ccache would not keep nvcc's intermediate files
            argv = argv[1:]
        with tempfile.TemporaryDirectory() as keep:
            at = argv.index("-o")
            argv[at + 1] = os.path.join(keep, name + ".o")
            argv += ["-keep", "-keep-dir", keep]
            run = subprocess.run(argv, cwd=entry["directory"], capture_output=True, text=True)
            if run.returncode != 0:
                print(f"{lesson}: the host stubs' compile failed:\n{run.stderr}")
                failed += 1
                continue
            kept = sorted(Path(keep).glob(f"{name}*.sm_*.cubin"))
            if len(kept) != 1:
                names = [k.name for k in kept]
                print(f"{lesson}: expected one kept cubin in {keep}, found {names}")
                failed += 1
                continue
            same = kept[0].read_bytes() == image.read_bytes()
            print(f"{'same' if same else 'DIFFERENT'}  {lesson}: {image} and the object's "
                  f"{kept[0].name}")
            checked += 1
            failed += 0 if same else 1
    images_cpp = sorted((build / "device-images").glob("*/images.cpp"))
    for source in images_cpp:
        target = source.parent.name
        for exe in (build / "bin" / target, build / target):
            if not exe.exists():
                continue
            nm = subprocess.run([os.environ.get("NM", "nm"), str(exe)], capture_output=True,
                                text=True)
            wrapped = " T __wrap_cudaLaunchKernel\n" in nm.stdout
            if not wrapped:
                print(f"NOT WRAPPED  {exe}: loads device images but calls the runtime unwrapped")
                failed += 1
    if checked == 0 and failed == 0:
        print("COURSE-TEST-SKIPPED: this build has no device images of a stub variant "
              "(cmake/CourseDeviceImage.cmake says why at configure time)")
        return 0
    print(f"{checked} lessons' device images checked, "
          f"{failed} problems (different, unwrapped, failed)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
