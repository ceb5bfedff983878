#!/usr/bin/env python3
"""Checks that the commands, links and paths the docs show are real.

    python3 tools/check_doc_commands.py --source DIR --grader PATH [--bench PATH]
        [--targets T1,T2] --commands README.md docs/REFERENCE.md --links docs/INSTRUCTORS.md

For each file given with --commands:

1. Commands: every line of a fenced block marked `sh` (trailing `# comment` dropped, a line
   ending in a backslash joined with the next, `&&` chains split), and every inline code span
   that starts with `./build`, `grader ` or `cmake `. A command of the grader (`./build/grader`,
   `./build-test/grader`, `./build-solutions/grader` or `grader`: all are the --grader binary)
   must name a real subcommand (`dev` and `class` need one of theirs), whose `--help` must exit 0
   and list every option the command uses; the lessons and steps it names must be ready lessons
   of lessons/course.json. Commands that need no GPU and change nothing but the state directory
   (the course map, `hint`, `sim`, `banks`, `dev readme` without `--write`) are run, with a
   temporary GRADER_STATE_DIR, and must exit 0; nothing is ever graded, so the check is the same
   with and without a GPU. `./build/bench` the same way with --bench (`--table` must be one of
   `bench --list`). `cmake --preset`, `--build --preset`, `--workflow --preset` must name presets
   of CMakePresets.json, `--target` one of --targets. `ncu ...` is checked as the bench command it
   runs. Any other program must be one of EXTERNAL, and is not run.
2. Paths: every argument of those commands that names a file of the repository must exist.

For each file given with --commands or --links:

3. Links: every Markdown link to a relative target must resolve, and its `#anchor`, if any, must
   be a heading of the target (GitHub's anchors).
4. Paths in inline code spans (`lessons/course.json`) that start with a top-level entry of the
   repository must exist; spans with placeholders (NN, <...>, *, LESSON) and build folders are
   left out, and so are the example lesson ids a doc creates with `grader dev new ID`.

Python 3 standard library only. Exit code 0 when everything holds, 1 when something does not
(each problem on its own line), 2 for a usage error.
"""

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

GRADER_PROGRAMS = {"./build/grader", "./build-test/grader", "./build-solutions/grader", "grader"}
BENCH_PROGRAMS = {"./build/bench", "./build-test/bench", "./build-solutions/bench"}
# Programs the docs may show that are not the course's: named, never run.
EXTERNAL = {"$EDITOR", "apt", "bash", "cd", "chmod", "cp", "ctest", "eval", "export", "git", "head",
            "nvidia-smi", "python3", "rm", "set"}
# Grader commands that only group others: `grader dev` and `grader class` alone do nothing.
GROUPS = {("dev",), ("class",)}
# Grader commands run for real: they need no GPU and write only to GRADER_STATE_DIR.
RUN_FOR_REAL = {(), ("hint",), ("sim",), ("banks",), ("dev", "readme")}
PLACEHOLDER = re.compile(r"^([A-Z][A-Z_]*(\[.*\])?|\.\.\.)$")
# Words that stand for a name in a path: lessons/NN_name/, cmd_NAME.cpp, docs/measured/GPU.md.
PLACEHOLDER_WORDS = {"NN", "NAME", "LESSON", "STEP", "ID", "GPU", "FILE", "COMMAND", "DIR", "N"}
TIMEOUT_S = 60


class Checker:
    def __init__(self, args):
        self.source = os.path.abspath(args.source)
        self.grader = args.grader
        self.bench = args.bench
        self.targets = set(t for t in re.split(r"[;,]", args.targets or "") if t)
        self.problems = []
        self.checked = 0
        self.external = set()
        self.state = tempfile.mkdtemp(prefix="doc-commands-state-")
        self.help_cache = {}
        with open(os.path.join(self.source, "lessons", "course.json"), encoding="utf-8") as f:
            self.lessons = [l for l in json.load(f)["lessons"] if l.get("status") == "ready"]
        with open(os.path.join(self.source, "CMakePresets.json"), encoding="utf-8") as f:
            presets = json.load(f)
        self.presets = {
            kind: {p["name"] for p in presets.get(key, [])}
            for kind, key in (("configure", "configurePresets"), ("build", "buildPresets"),
                              ("workflow", "workflowPresets"), ("test", "testPresets"))
        }
        self.subcommands = {(): self.subcommands_of(())}
        for group in GROUPS:
            self.subcommands[group] = self.subcommands_of(group)
        self.bench_tables = None

    # --- running --------------------------------------------------------------------------------

    def run(self, argv):
        env = dict(os.environ, GRADER_STATE_DIR=self.state, NO_COLOR="1")
        try:
            p = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT_S, env=env,
                               stdin=subprocess.DEVNULL, cwd=self.source)
        except (OSError, subprocess.TimeoutExpired) as e:
            return 127, str(e)
        return p.returncode, p.stdout + p.stderr

    def help_of(self, path):
        if path not in self.help_cache:
            self.help_cache[path] = self.run([self.grader, *path, "--help"])
        return self.help_cache[path]

    def subcommands_of(self, path):
        rc, text = self.help_of(path)
        if rc != 0:
            self.problems.append(f"`grader {' '.join(path)} --help` exited {rc}: {text[-300:]}")
            return set()
        names, in_list = set(), False
        for line in text.splitlines():
            if re.match(r"^\s*Subcommands:\s*$", line):
                in_list = True
                continue
            if in_list:
                m = re.match(r"^\s{2,}([a-z][a-z0-9-]*)\b", line)
                if m:
                    names.add(m.group(1))
                elif line.strip() and not line.startswith(" "):
                    in_list = False
        return names

    # --- commands -------------------------------------------------------------------------------

    def check_command(self, where, command):
        try:
            words = shlex.split(command, posix=True)
        except ValueError:
            words = command.split()
        while words and re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):  # VAR=value before a command
            words = words[1:]
        if not words:
            return
        self.checked += 1
        program, rest = words[0], words[1:]
        if program in GRADER_PROGRAMS:
            self.check_grader(where, command, rest)
        elif program in BENCH_PROGRAMS:
            self.check_bench(where, command, rest)
        elif program == "cmake":
            self.check_cmake(where, command, rest)
        elif program == "ncu":
            runs = [i for i, w in enumerate(rest) if w in BENCH_PROGRAMS or w in GRADER_PROGRAMS]
            if not runs:
                self.problems.append(f"{where}: `{command}`: ncu runs none of the course's programs")
            else:
                self.check_command(where, " ".join(shlex.quote(w) for w in rest[runs[0]:]))
        elif program in EXTERNAL:
            self.external.add(program)
        else:
            self.problems.append(f"{where}: `{command}`: `{program}` is neither a program of the "
                                 f"course nor a known external one (tools/check_doc_commands.py)")
            return
        for w in rest:
            self.check_path(where, w, f"`{command}` names")

    def check_grader(self, where, command, args):
        path, i = (), 0
        while i < len(args) and args[i] in self.subcommands.get(path, set()):
            path += (args[i],)
            i += 1
        if path in GROUPS:
            # `grader dev ...`, `grader dev NAME`: prose about the group, not a command
            if i < len(args) and PLACEHOLDER.match(args[i]):
                return
            self.problems.append(f"{where}: `{command}`: `grader {path[0]}` needs a command")
            return
        rc, help_text = self.help_of(path)
        if rc != 0:
            self.problems.append(f"{where}: `{command}`: `grader {' '.join(path)} --help` exited {rc}")
            return
        placeholders = False
        for w in args[i:]:
            if w.startswith("-"):
                option = w.split("=", 1)[0]
                if not re.search(r"(^|[\s,/])" + re.escape(option) + r"\b", help_text):
                    self.problems.append(f"{where}: `{command}`: {option} is not an option of "
                                         f"`{' '.join(('grader',) + path)}` (see its --help)")
            elif PLACEHOLDER.match(w):
                placeholders = True
        if path in ((), ("hint",), ("quiz",), ("watch",), ("reset",), ("profile",)):
            values = {"--seed", "--device", "--timeout", "--kernel-timeout", "--junit",
                      "--gradescope", "--variant", "--color", "--sanitize-tools", "--interval",
                      "--answer"}
            after = [a for j, a in enumerate(args[i:]) if not a.startswith("-")
                     and not (j > 0 and args[i:][j - 1] in values)]
            for spec in after:
                if not PLACEHOLDER.match(spec):
                    why = self.lesson_problem(spec)
                    if why:
                        self.problems.append(f"{where}: `{command}`: {why}")
        # Without a subcommand only the bare course map is run: anything else grades.
        if (path in RUN_FOR_REAL and (path or not args) and not placeholders
                and "--write" not in args):
            rc, out = self.run([self.grader, *args])
            if rc != 0:
                self.problems.append(f"{where}: `{command}` exited {rc}: {out[-400:]}")

    def lesson_problem(self, spec):
        lesson, _, step = spec.partition(".")
        for l in self.lessons:
            number, name = l["id"][:2], l["id"][3:]
            if lesson in (l["id"], number, number.lstrip("0"), name):
                steps = [s["name"] for s in l.get("steps", [])]
                if step and step not in steps:
                    return f"lesson {l['id']} has no step '{step}' (its steps: {', '.join(steps)})"
                return ""
        return f"'{lesson}' is not a ready lesson of lessons/course.json"

    def check_bench(self, where, command, args):
        if not self.bench:
            self.external.add("bench (no CUDA in this build: not checked)")
            return
        if not os.access(self.bench, os.X_OK):
            self.problems.append(f"{where}: `{command}`: {self.bench} is not built (build all first)")
            return
        rc, help_text = self.run([self.bench, "--help"])
        if rc != 0:
            self.problems.append(f"{where}: `bench --help` exited {rc}: {help_text[-300:]}")
            return
        for j, w in enumerate(args):
            if w.startswith("-"):
                option = w.split("=", 1)[0]
                if not re.search(r"(^|[\s,/])" + re.escape(option) + r"\b", help_text):
                    self.problems.append(f"{where}: `{command}`: {option} is not an option of bench")
                if option == "--table" and j + 1 < len(args):
                    if self.bench_tables is None:
                        rc, listed = self.run([self.bench, "--list"])
                        self.bench_tables = {l.split()[0] for l in listed.splitlines() if l.strip()}
                    if args[j + 1] not in self.bench_tables:
                        self.problems.append(f"{where}: `{command}`: no bench table "
                                             f"'{args[j + 1]}' in `bench --list`")

    def check_cmake(self, where, command, args):
        def value(flag):
            for j, w in enumerate(args):
                if w == flag and j + 1 < len(args):
                    return args[j + 1]
                if w.startswith(flag + "="):
                    return w.split("=", 1)[1]
            return None

        preset, target = value("--preset"), value("--target")
        kind = ("workflow" if "--workflow" in args else "build" if "--build" in args
                else "test" if "--test" in args else "configure")
        if preset is not None and preset not in self.presets[kind]:
            self.problems.append(f"{where}: `{command}`: no {kind} preset '{preset}' in "
                                 "CMakePresets.json")
        if target is not None and target not in self.targets:
            self.problems.append(f"{where}: `{command}`: '{target}' is not a target of this build "
                                 f"(known: {', '.join(sorted(self.targets))})")
        build_dir = value("--build")
        if build_dir is not None and build_dir.startswith("build"):
            return  # cmake --build build-test: a build folder of the presets
        if preset is None and target is None:
            self.problems.append(f"{where}: `{command}`: a cmake command this check does not know")

    # --- paths and links ------------------------------------------------------------------------

    def check_path(self, where, word, what, examples=()):
        word = word.rstrip(".,;:)")
        if not re.match(r"^[A-Za-z0-9_.][\w./-]*$", word) or word.startswith(("./", "../")):
            return
        parts = [p for p in word.split("/") if p]
        if not parts or not os.path.exists(os.path.join(self.source, parts[0])):
            return
        if len(parts) == 1 and "/" not in word and "." not in word:
            return  # a plain word that happens to be a folder's name (`bench`, `tools`)
        if any(p.startswith("build") or p == ".grader" or PLACEHOLDER.match(p)
               or PLACEHOLDER_WORDS & set(re.split(r"[_.-]", p)) for p in parts):
            return
        if any(e in parts for e in examples):
            return
        if not os.path.exists(os.path.join(self.source, *parts)):
            self.problems.append(f"{where}: {what} {word}, which does not exist")

    def check_links(self, path, text):
        base = os.path.dirname(path)
        for m in re.finditer(r"\[[^\]]*\]\(([^)\s]+)\)", strip_code(text)):
            target = m.group(1)
            if re.match(r"^[a-z]+:", target):
                continue
            file_part, _, anchor = target.partition("#")
            resolved = os.path.normpath(os.path.join(base, file_part)) if file_part else path
            where = f"{os.path.relpath(path, self.source)}"
            if not os.path.exists(resolved):
                self.problems.append(f"{where}: link ({target}) resolves to nothing")
                continue
            if anchor and resolved.endswith(".md"):
                with open(resolved, encoding="utf-8") as f:
                    if anchor not in anchors(f.read()):
                        self.problems.append(f"{where}: link ({target}): no heading with that "
                                             f"anchor in {os.path.relpath(resolved, self.source)}")

    def check_file(self, rel, commands):
        path = os.path.join(self.source, rel)
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            self.problems.append(f"{rel}: {e}")
            return
        self.check_links(path, text)
        examples = set(re.findall(r"grader dev new (\d\d_[a-z0-9_]+)", text))
        blocks, outside = fenced_blocks(text)
        spans = [(n, s) for n, line in outside for s in re.findall(r"`([^`\n]+)`", line)]
        for n, span in spans:
            self.check_path(f"{rel}:{n}", span, "names", examples)
        if not commands:
            return
        for lang, lines in blocks:
            if lang not in ("sh", "bash", "shell"):
                continue
            for n, body in joined_lines(lines):
                for part in body.split("&&"):
                    self.check_command(f"{rel}:{n}", part.strip())
        for n, span in spans:
            if span.startswith(("./build", "grader ", "cmake ")):
                self.check_command(f"{rel}:{n}", span)


def joined_lines(lines):
    """A shell block's commands: comments dropped, a line ending in a backslash joined with the
    next one; each with its first line's number."""
    out, pending, first = [], "", None
    for n, line in lines:
        body = re.sub(r"(^|\s)#.*$", "", line).strip()
        if first is None:
            first = n
        if body.endswith("\\"):
            pending += body[:-1] + " "
            continue
        out.append((first, pending + body))
        pending, first = "", None
    if pending:
        out.append((first, pending.strip()))
    return out


def strip_code(text):
    """The text without fenced blocks and inline code, where a link is not a link."""
    blocks, outside = fenced_blocks(text)
    return "\n".join(re.sub(r"`[^`\n]*`", "", line) for _, line in outside)


def fenced_blocks(text):
    """([(lang, [(line number, line)])], [(line number, line) outside blocks])."""
    blocks, outside, current = [], [], None
    for n, line in enumerate(text.splitlines(), 1):
        fence = re.match(r"^\s*```\s*([\w-]*)", line)
        if fence:
            if current is None:
                current = (fence.group(1), [])
            else:
                blocks.append(current)
                current = None
            continue
        (current[1] if current is not None else outside).append((n, line))
    return blocks, outside


def anchors(text):
    """GitHub's anchors of a Markdown file's headings (duplicates get -1, -2, ...)."""
    seen, out = {}, set()
    _, outside = fenced_blocks(text)
    for _, line in outside:
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        out.add(slug if count == 0 else f"{slug}-{count}")
    return out


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", required=True)
    parser.add_argument("--grader", required=True)
    parser.add_argument("--bench")
    parser.add_argument("--targets")
    parser.add_argument("--commands", nargs="*", default=[])
    parser.add_argument("--links", nargs="*", default=[])
    args = parser.parse_args(argv[1:])
    if not os.access(args.grader, os.X_OK):
        print(f"{args.grader}: not built (build the grader target first)", file=sys.stderr)
        return 2
    checker = Checker(args)
    for rel in args.commands:
        checker.check_file(rel, commands=True)
    for rel in args.links:
        checker.check_file(rel, commands=False)
    if checker.external:
        print("named, not run: " + ", ".join(sorted(checker.external)))
    if checker.problems:
        for p in checker.problems:
            print(p, file=sys.stderr)
        print(f"FAIL: {len(checker.problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"ok: {checker.checked} commands of {', '.join(args.commands)} are the course's; the "
          f"links and paths of {', '.join(args.commands + args.links)} resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
