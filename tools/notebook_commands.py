#!/usr/bin/env python3
"""The shell commands of a Jupyter/Colab notebook, in the order a reader runs them, and the plan
tools/gpu-suite.sh's `notebook` phase follows to run them on a lent GPU machine.

    python3 tools/notebook_commands.py docs/colab.ipynb          # every command, as written
    python3 tools/notebook_commands.py docs/colab.ipynb --json   # the same, as JSON
    python3 tools/notebook_commands.py docs/colab.ipynb --plan --workdir DIR --arch 90 [--nul]
    python3 tools/notebook_commands.py --check apt PACKAGE...    # is what apt-get would install here?
    python3 tools/notebook_commands.py --check pip 'SPEC'...     # is what pip would install here?

What counts as a command is tools/check_notebook.py's (cell_entries: `!command` lines, `%cd`,
`%env`, `%pip`, `%%bash` cells; other lines are Python, never run, listed so a reader sees them;
an unknown cell magic is an error), so the notebook's check and its run read the same commands.

--plan turns the list into what the GPU machine runs. Every command runs as written, except
  (a) commands that need the internet (git clone, apt-get/apt, pip/%pip, conda): a clone is
      replaced by a copy of the working tree at --workdir (and its directory by --workdir
      wherever it appears later), an install is skipped and what it installs is checked instead
      (--check), since the lent machine has no internet;
  (b) the GPU architecture: `--preset colab-t4` (sm_75, the T4) gets `-DCMAKE_CUDA_ARCHITECTURES=
      ARCH` after it, and `-DCMAKE_CUDA_ARCHITECTURES=75` becomes ARCH.
Each substitution comes with a one-line "deviation" text. IPython's `{NAME}` and `$NAME`
expansion in `!` lines is applied with the notebook's own literal assignments (NAME = "...").
The expected exit code is 1 where the command ends by grading a lesson or step
(`./build/grader 07_transpose`): the untouched stubs fail every step (README: 1 = a step
failed); 0 everywhere else.

--nul prints the plan as NUL-terminated fields, six per entry: kind (run, cd, env, copy, skip,
python), cell, expected exit code, deviation (may be empty), check (for skip: the shell command
that checks what the install would provide, `notebook_commands.py --check apt|pip ...`, or
empty), command (for copy: the directory to copy the tree to; for skip: the command as written).
Without --nul the plan is printed for people.

Python 3 standard library only. Exit codes: 0 ok, 1 a notebook this tool cannot run faithfully
(or --check found something missing), 2 usage error or unreadable file.
"""

import argparse
import ast
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_notebook import NotebookError, check_structure, extract  # noqa: E402


GRADER_SUBCOMMANDS = {"hint", "sim", "quiz", "reset", "watch", "profile", "dev"}


def literal_assignments(entries):
    """NAME -> value for the notebook's `NAME = <literal>` Python lines (for IPython expansion)."""
    values = {}
    for e in entries:
        if e["kind"] != "python":
            continue
        try:
            tree = ast.parse(e["command"])
        except SyntaxError:
            continue
        for node in tree.body:
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
            ):
                try:
                    values[node.targets[0].id] = ast.literal_eval(node.value)
                except ValueError:
                    pass
    return values


def expand(command, values, where):
    """IPython's expansion of a `!` line: {NAME} and $NAME from the notebook's variables ($$ is $).
    A name that is no variable is left to the shell, as IPython does ($HOME stays $HOME)."""

    def brace(m):
        name = m.group(1)
        if name not in values:
            raise NotebookError(f"{where}: {{{name}}} is not a literal variable of the notebook")
        return str(values[name])

    # {NAME} is IPython's; ${NAME} is the shell's (IPython would fail on it and leave it as is).
    out = re.sub(r"(?<![$\{])\{([A-Za-z_]\w*)\}(?!\})", brace, command)
    out = re.sub(
        r"(?<!\$)\$([A-Za-z_]\w*)",
        lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0),
        out,
    )
    return out.replace("$$", "$")


def _segments(command):
    """The simple commands of a `a && b ; c || d` line or of a script's lines (no subshells or
    pipes split further)."""
    return [p.strip() for p in re.split(r"&&|\|\||;|\n", command) if p.strip()]


def _words(segment):
    try:
        words = shlex.split(segment)
    except ValueError:
        return segment.split()
    return [w for w in words if not re.match(r"^\d?[<>]", w) and w != "/dev/null"]


def needs_internet(segment):
    """('clone', dest) / ('apt', packages) / ('pip', specs) / ('conda', specs) / None."""
    w = _words(segment)
    while w and w[0] in ("sudo", "env"):
        w = w[1:]
    if not w:
        return None
    if w[0] == "git" and len(w) > 1 and w[1] == "clone":
        args = [a for a in w[2:] if not a.startswith("-")]
        if not args:
            return ("clone", None)
        dest = args[1] if len(args) > 1 else re.sub(r"\.git$", "", args[0].rstrip("/").split("/")[-1])
        return ("clone", dest)
    if w[0] in ("apt-get", "apt"):
        pkgs = []
        if "install" in w:
            pkgs = [a for a in w[w.index("install") + 1 :] if not a.startswith("-")]
        return ("apt", pkgs)
    pip = None
    if w[0] in ("pip", "pip3"):
        pip = w[1:]
    elif re.match(r"^python[0-9.]*$", w[0]) and w[1:3] == ["-m", "pip"]:
        pip = w[3:]
    if pip is not None:
        if pip[:1] == ["install"]:
            return ("pip", [a for a in pip[1:] if not a.startswith("-")])
        return None  # pip list / show / --version: local
    if w[0] in ("conda", "mamba") and w[1:2] == ["install"]:
        return ("conda", [a for a in w[2:] if not a.startswith("-")])
    if w[0] in ("wget", "curl"):
        return ("download", [])
    return None


def grades_a_lesson(command):
    """True when the command ends by grading: `./build/grader LESSON[.STEP] [options]`."""
    last = _segments(command)[-1] if _segments(command) else ""
    w = _words(last)
    if not w or not re.match(r"^(\./)?build[^/]*/grader$", w[0]):
        return False
    args = [a for a in w[1:] if not a.startswith("-")]
    if args and args[0] in GRADER_SUBCOMMANDS:
        return False
    return bool(args) or "--all" in w


def plan(entries, workdir, arch):
    """What the GPU machine runs: entries with kind run/cd/env/copy/skip/python, each with
    expect, deviation and check."""
    values = literal_assignments(entries)
    clone_dest = None
    steps = []
    for e in entries:
        where = f"cell {e['cell']}"
        step = {"cell": e["cell"], "kind": e["kind"], "original": e["command"], "command": e["command"],
                "expect": 0, "deviation": "", "check": ""}
        if e["kind"] == "python":
            steps.append(step)
            continue
        if e["kind"] == "env":
            step["command"] = expand(e["command"], values, where)
            steps.append(step)
            continue
        if e["kind"] == "cd":
            target = expand(e["command"], values, where)
            if clone_dest and (target == clone_dest or target.startswith(clone_dest.rstrip("/") + "/")):
                step["command"] = workdir + target[len(clone_dest.rstrip("/")):]
                step["deviation"] = (
                    f"(a) `%cd {e['command']}` runs as `cd {step['command']}`: the clone's "
                    "directory is the local copy"
                )
            else:
                step["command"] = target
            steps.append(step)
            continue
        command = expand(e["command"], values, where)
        internet = [needs_internet(s) for s in _segments(command)]
        if any(internet):
            if not all(internet):
                raise NotebookError(
                    f"{where}: `{command}` mixes commands that need the internet with others; "
                    "split the line"
                )
            kinds = {i[0] for i in internet}
            if "clone" in kinds:
                if len(internet) != 1 or internet[0][1] is None:
                    raise NotebookError(f"{where}: cannot tell where `{command}` clones to")
                clone_dest = internet[0][1]
                step["kind"] = "copy"
                step["command"] = workdir
                step["deviation"] = (
                    f"(a) `{e['command']}` needs the internet (the lent GPU machine has none): "
                    f"replaced by a copy of this working tree (uncommitted changes included) at "
                    f"{workdir}, which stands for {clone_dest} from here on"
                )
            else:
                step["kind"] = "skip"
                checks = []
                for i in internet:
                    if i[0] in ("apt", "pip") and i[1]:
                        checks.append(" ".join(
                            [shlex.quote(sys.executable), shlex.quote(os.path.abspath(__file__)),
                             "--check", i[0]] + [shlex.quote(p) for p in i[1]]))
                    elif i[0] in ("conda", "download"):
                        raise NotebookError(
                            f"{where}: `{command}` needs the internet and this tool cannot check "
                            "what it provides; teach tools/notebook_commands.py"
                        )
                step["check"] = " && ".join(checks)
                what = (
                    "checking that what it installs is already here"
                    if checks
                    else "it only refreshes the package index, nothing to check"
                )
                step["deviation"] = (
                    f"(a) `{e['command']}` needs the internet (the lent GPU machine has none): "
                    f"not run; {what}"
                )
            steps.append(step)
            continue
        notes = []
        if clone_dest and clone_dest in command:
            command = command.replace(clone_dest.rstrip("/"), workdir)
            notes.append(f"(a) the clone's directory {clone_dest} is the local copy {workdir}")
        new = re.sub(r"(?<!--build )(--preset[ =]colab-t4)\b", rf"\1 -DCMAKE_CUDA_ARCHITECTURES={arch}", command)
        if new == command:
            new = re.sub(r"(-DCMAKE_CUDA_ARCHITECTURES=)75\b", rf"\g<1>{arch}", command)
        if new != command:
            notes.append(
                f"(b) architecture: the notebook builds for the T4 (sm_75); on this sm_{arch} GPU "
                f"the command runs as `{new}` (a -D on the command line overrides the preset's "
                "CMAKE_CUDA_ARCHITECTURES; nothing else changes)"
            )
            command = new
        step["deviation"] = "; ".join(notes)
        step["kind"] = "run"
        step["command"] = command
        if grades_a_lesson(command):
            step["expect"] = 1
        steps.append(step)
    return steps


# ---------------------------------------------------------------------------------------------
# --check: is what a skipped install would provide already on this machine?

APT_EVIDENCE = {  # package -> headers or commands that show it is installed without dpkg
    "libgtest-dev": ["include:gtest/gtest.h"],
    "googletest": ["include:gtest/gtest.h", "file:/usr/src/googletest/CMakeLists.txt"],
    "libcli11-dev": ["include:CLI/CLI.hpp"],
    "libfmt-dev": ["include:fmt/format.h"],
    "nlohmann-json3-dev": ["include:nlohmann/json.hpp"],
    "ninja-build": ["cmd:ninja"],
    "cmake": ["cmd:cmake"],
    "python3": ["cmd:python3"],
}
INCLUDE_DIRS = ["/usr/include", "/usr/local/include"]


def _version_tuple(text):
    m = re.search(r"(\d+(?:\.\d+)+)", text)
    return tuple(int(x) for x in m.group(1).split(".")) if m else None


def _satisfies(version, op, wanted):
    v, w = _version_tuple(version), _version_tuple(wanted)
    if v is None or w is None:
        return False
    n = max(len(v), len(w))
    v, w = v + (0,) * (n - len(v)), w + (0,) * (n - len(w))
    return {">=": v >= w, ">": v > w, "==": v == w, "<=": v <= w, "<": v < w, "!=": v != w}[op]


def check_apt(pkg):
    """(ok, how)"""
    if shutil.which("dpkg-query"):
        r = subprocess.run(["dpkg-query", "-W", "-f=${Status} ${Version}", pkg],
                           capture_output=True, text=True)
        if r.returncode == 0 and r.stdout.startswith("install ok installed"):
            return True, f"dpkg: {r.stdout.split()[-1]}"
    dirs = INCLUDE_DIRS + [d for d in os.environ.get("CPATH", "").split(":") if d]
    for ev in APT_EVIDENCE.get(pkg, []):
        kind, _, what = ev.partition(":")
        if kind == "cmd" and shutil.which(what):
            return True, f"{shutil.which(what)} (not from dpkg)"
        if kind == "include":
            for d in dirs:
                if os.path.exists(os.path.join(d, what)):
                    return True, f"{os.path.join(d, what)} (not from dpkg)"
        if kind == "file" and os.path.exists(what):
            return True, f"{what} (not from dpkg)"
    return False, "not installed"


def check_pip(spec):
    m = re.match(r"^([A-Za-z0-9_.\-]+)\s*(?:(>=|<=|==|!=|>|<)\s*([\w.]+))?$", spec.strip())
    if not m:
        return False, f"cannot read the requirement {spec!r}"
    name, op, wanted = m.groups()
    version = None
    if shutil.which(name):  # a tool pip would install (cmake, ninja): the one on PATH counts
        r = subprocess.run([name, "--version"], capture_output=True, text=True)
        version = (r.stdout or r.stderr).splitlines()[0] if (r.stdout or r.stderr) else ""
        found = f"{shutil.which(name)}: {version}"
    else:
        try:
            from importlib import metadata

            version = metadata.version(name)
            found = f"python package {name} {version}"
        except Exception:
            return False, "not installed"
    if op and not _satisfies(version, op, wanted):
        return False, f"{found}, but {op}{wanted} is required"
    return True, found


def run_check(kind, items):
    ok_all = True
    for item in items:
        ok, how = check_apt(item) if kind == "apt" else check_pip(item)
        ok_all &= ok
        print(f"  {'present' if ok else 'MISSING'}  {kind} {item}: {how}")
    return 0 if ok_all else 1


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("notebook", nargs="?")
    ap.add_argument("--json", action="store_true", help="print the commands (or plan) as JSON")
    ap.add_argument("--plan", action="store_true", help="the commands as the GPU machine runs them")
    ap.add_argument("--workdir", default="/tmp/notebook/cuda-course", help="the clone's stand-in")
    ap.add_argument("--arch", default="90", help="CUDA architecture of this GPU (90: H100/H200)")
    ap.add_argument("--nul", action="store_true", help="plan as NUL-terminated fields (for bash)")
    ap.add_argument("--check", nargs="+", metavar=("apt|pip", "ITEM"),
                    help="check that packages a skipped install would provide are present")
    a = ap.parse_args(argv[1:])
    if a.check:
        if a.check[0] not in ("apt", "pip"):
            ap.error("--check needs apt or pip first")
        return run_check(a.check[0], a.check[1:])
    if not a.notebook:
        ap.error("a notebook is needed")
    try:
        with open(a.notebook, encoding="utf-8") as f:
            nb = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        print(f"{a.notebook}: {e}", file=sys.stderr)
        return 2
    problems = check_structure(nb)
    if problems:
        for p in problems:
            print(f"{a.notebook}: {p}", file=sys.stderr)
        return 1
    try:
        entries = extract(nb)
        steps = plan(entries, a.workdir, a.arch) if a.plan else entries
    except NotebookError as e:
        print(f"{a.notebook}: {e}", file=sys.stderr)
        return 1
    if a.json:
        print(json.dumps(steps, indent=2))
    elif a.plan and a.nul:
        for s in steps:
            for field in ("kind", "cell", "expect", "deviation", "check", "command"):
                sys.stdout.write(f"{s[field]}\0")
    elif a.plan:
        for s in steps:
            prefix = {"run": "!", "cd": "%cd ", "env": "%env ", "copy": "copy to ", "skip": "skip !",
                      "python": "python: "}[s["kind"]]
            print(f"[{s['cell']}] {prefix}{s['command'] if s['kind'] != 'skip' else s['original']}"
                  + (f"   (expect exit {s['expect']})" if s["kind"] == "run" else ""))
            if s["deviation"]:
                print(f"    deviation: {s['deviation']}")
            if s["check"]:
                print(f"    check: {s['check']}")
    else:
        for e in entries:
            prefix = {"shell": "!", "cd": "%cd ", "env": "%env ", "python": "python: "}[e["kind"]]
            print(f"[{e['cell']}] {prefix}{e['command']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
