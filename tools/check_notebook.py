#!/usr/bin/env python3
"""Checks docs/colab.ipynb: a valid nbformat 4 notebook whose set-up commands are the README's.

    python3 tools/check_notebook.py docs/colab.ipynb README.md

1. Structure (nbformat 4, as the Jupyter schema requires it): top-level `cells`, `metadata`,
   `nbformat` (4) and `nbformat_minor`; every cell has `cell_type` (code, markdown or raw),
   `source` (a string or a list of strings) and `metadata` (an object); code cells also have
   `outputs` (a list) and `execution_count` (null or an integer); other cells have neither; from
   nbformat 4.5 on every cell has a unique `id` of 1-64 characters [A-Za-z0-9_-].
2. Commands: in every cell tagged "readme" (cell metadata {"tags": ["readme"]}), every shell
   command (`!command`, see cell_entries) must be a command of README.md, verbatim or with the preset `colab-t4` written as
   `exercises`. README commands are the lines of its fenced code blocks (without a trailing
   `# comment`) and its inline `code` spans. Untagged cells are not compared: their `cmake` and
   `./build` commands are listed as notes, so a reader sees what is unchecked.

Python 3 standard library only. Exit code 0 when everything holds, 1 when something does not
(each problem on its own line; a file that is not JSON is one), 2 for a usage error or a file
that cannot be opened.
"""

import json
import re
import sys

ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
CELL_TYPES = {"code", "markdown", "raw"}
README_TAG = "readme"


def source_text(cell):
    src = cell.get("source", "")
    if isinstance(src, list):
        return "".join(s for s in src if isinstance(s, str))
    return src if isinstance(src, str) else ""


class NotebookError(Exception):
    """The notebook holds something this tool cannot run as written."""


SHELL_CELL_MAGICS = {"%%bash", "%%sh"}
OUTPUT_ONLY_CELL_MAGICS = {"%%capture"}


def cell_name(index, cell):
    cid = cell.get("id")
    return cid if isinstance(cid, str) and cid else f"cell{index}"


def _logical_lines(text):
    """Lines, with a `!` line that ends in a backslash joined to the next as IPython joins it
    (inputtransformer2.assemble_continued_line: the backslash dropped, the parts joined by a
    space)."""
    out, parts = [], None
    for line in text.splitlines():
        if parts is None and not (
            line.strip().startswith("!") or re.match(r"^\s*\w+\s*=\s*!", line)
        ):
            out.append(line)
            continue
        parts = (parts or []) + [line.rstrip()]
        if parts[-1].endswith("\\"):
            continue
        out.append(" ".join([p[:-1] for p in parts[:-1]] + [parts[-1]]))
        parts = None
    if parts is not None:
        out.append(" ".join([p[:-1] for p in parts]))
    return out


def extract(nb):
    """[{cell, kind, command}] of every code cell, in run order (see cell_entries)."""
    entries = []
    for index, cell in enumerate(nb.get("cells", [])):
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            entries += cell_entries(cell_name(index, cell), cell)
    return entries


def cell_entries(name, cell):
    """[{cell, kind, command}] of one code cell, in order. kind: shell (`!command`, `%pip`,
    `%%bash` cells ...), cd (`%cd`), env (`%env`), python (anything else). An unknown cell magic
    raises NotebookError: a notebook that cannot be read faithfully must fail, not run in part."""
    entries = []
    text = source_text(cell)
    lines = text.splitlines()
    # Cell magics come first in a cell; %%capture only hides output, so it is dropped.
    while lines and lines[0].strip().split()[:1] and lines[0].strip().startswith("%%"):
        magic = lines[0].strip().split()
        if magic[0] in OUTPUT_ONLY_CELL_MAGICS:
            lines = lines[1:]
            continue
        if magic[0] in SHELL_CELL_MAGICS or (
            magic[0] == "%%script" and len(magic) > 1 and magic[1] in ("bash", "sh")
        ):
            body = "\n".join(lines[1:]).strip("\n")
            entries.append({"cell": name, "kind": "shell", "command": body})
            return entries
        raise NotebookError(
            f"{name}: cell magic {magic[0]} is not supported (extend tools/check_notebook.py)"
        )
    for line in _logical_lines("\n".join(lines)):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        m = re.match(r"^(?:\w+\s*=\s*)?!!?(.*)$", s, re.S)
        if m:
            entries.append({"cell": name, "kind": "shell", "command": m.group(1).strip()})
        elif s.startswith("%cd"):
            entries.append({"cell": name, "kind": "cd", "command": s[3:].strip()})
        elif s.startswith("%env"):
            entries.append({"cell": name, "kind": "env", "command": s[4:].strip()})
        elif re.match(r"^%(pip|conda)\b", s):
            entries.append({"cell": name, "kind": "shell", "command": s[1:]})
        elif re.match(r"^%(sx|system)\b", s):
            entries.append(
                {"cell": name, "kind": "shell", "command": s.split(None, 1)[1] if " " in s else ""}
            )
        elif s.startswith("%%"):
            raise NotebookError(f"{name}: cell magic {s.split()[0]} is not on the cell's first line")
        else:
            entries.append({"cell": name, "kind": "python", "command": s})
    return entries


def check_structure(nb):
    problems = []
    if not isinstance(nb, dict):
        return ["the notebook is not a JSON object"]
    if nb.get("nbformat") != 4:
        problems.append(f"nbformat is {nb.get('nbformat')!r}, expected 4")
    minor = nb.get("nbformat_minor")
    if not isinstance(minor, int) or isinstance(minor, bool) or minor < 0:
        problems.append(f"nbformat_minor is {minor!r}, expected a non-negative integer")
        minor = 0
    if not isinstance(nb.get("metadata"), dict):
        problems.append("top-level metadata is missing or not an object")
    cells = nb.get("cells")
    if not isinstance(cells, list):
        return problems + ["top-level cells is missing or not a list"]
    if not cells:
        problems.append("the notebook has no cells")
    seen_ids = set()
    for i, cell in enumerate(cells):
        where = f"cell {i}"
        if not isinstance(cell, dict):
            problems.append(f"{where}: not an object")
            continue
        ctype = cell.get("cell_type")
        if ctype not in CELL_TYPES:
            problems.append(
                f"{where}: cell_type is {ctype!r}, expected one of {sorted(CELL_TYPES)}"
            )
        src = cell.get("source")
        lines_ok = isinstance(src, list) and all(isinstance(s, str) for s in src)
        if not (isinstance(src, str) or lines_ok):
            problems.append(f"{where}: source must be a string or a list of strings")
        if not isinstance(cell.get("metadata"), dict):
            problems.append(f"{where}: metadata is missing or not an object")
        elif "tags" in cell["metadata"] and not (
            isinstance(cell["metadata"]["tags"], list)
            and all(isinstance(t, str) for t in cell["metadata"]["tags"])
        ):
            problems.append(f"{where}: metadata.tags must be a list of strings")
        if ctype == "code":
            if not isinstance(cell.get("outputs"), list):
                problems.append(f"{where}: a code cell needs outputs (a list)")
            count = cell.get("execution_count", "missing")
            if not (count is None or (isinstance(count, int) and not isinstance(count, bool))):
                problems.append(
                    f"{where}: execution_count must be null or an integer, got {count!r}"
                )
        elif ctype in ("markdown", "raw"):
            for key in ("outputs", "execution_count"):
                if key in cell:
                    problems.append(f"{where}: a {ctype} cell must not have {key}")
        if minor >= 5:
            cid = cell.get("id")
            if not isinstance(cid, str) or not ID_PATTERN.match(cid):
                problems.append(
                    f"{where}: nbformat 4.{minor} needs an id of 1-64 [A-Za-z0-9_-], got {cid!r}"
                )
            elif cid in seen_ids:
                problems.append(f"{where}: id {cid!r} is used twice")
            else:
                seen_ids.add(cid)
    return problems


def normalize(command):
    return " ".join(command.split())


def readme_commands(text):
    """Command lines of fenced code blocks (trailing comments dropped) and inline code spans."""
    commands = set()
    in_block = False
    outside = []
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            in_block = not in_block
            continue
        if in_block:
            body = re.sub(r"\s+#.*$", "", line).strip()
            if body and not body.startswith("#"):
                commands.add(normalize(body))
        else:
            outside.append(line)
    for span in re.findall(r"`([^`\n]+)`", "\n".join(outside)):
        commands.add(normalize(span))
    return commands


def shell_lines(cell):
    """The shell commands of a code cell (cell_entries, kind shell), normalized."""
    return [normalize(e["command"]) for e in cell_entries("", cell) if e["kind"] == "shell"]


def check_commands(nb, readme_text):
    problems, notes = [], []
    known = readme_commands(readme_text)
    tagged = 0
    for i, cell in enumerate(nb.get("cells", [])):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        meta = cell.get("metadata")
        tags = meta.get("tags", []) if isinstance(meta, dict) else []
        name = f"cell {i}" + (f" ({cell['id']})" if isinstance(cell.get("id"), str) else "")
        try:
            commands = shell_lines(cell)
        except NotebookError as e:
            problems.append(f"{name}: {e}")
            continue
        if README_TAG not in tags:
            for c in commands:
                if c.startswith("cmake") or c.startswith("./build"):
                    notes.append(
                        f"{name}: not tagged '{README_TAG}', not compared with README.md: !{c}"
                    )
            continue
        tagged += 1
        if not commands:
            problems.append(f"{name}: tagged '{README_TAG}' but has no !command")
        for c in commands:
            as_readme = re.sub(r"(--preset[ =])colab-t4\b", r"\1exercises", c)
            if c in known or as_readme in known:
                continue
            problems.append(
                f"{name}: !{c}\n    is not a README.md command"
                + (f" (also tried: {as_readme})" if as_readme != c else "")
                + ". Update the notebook to the README's command, or drop the readme tag."
            )
    if tagged == 0:
        problems.append(f"no code cell is tagged '{README_TAG}': the set-up cell must be")
    return problems, notes, tagged


def main(argv):
    if len(argv) != 3:
        print("usage: check_notebook.py NOTEBOOK.ipynb README.md", file=sys.stderr)
        return 2
    nb_path, readme_path = argv[1], argv[2]
    try:
        with open(nb_path, encoding="utf-8") as f:
            nb = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        print(f"{nb_path}: cannot read it as JSON: {e}", file=sys.stderr)
        return 2 if isinstance(e, OSError) else 1
    try:
        with open(readme_path, encoding="utf-8") as f:
            readme = f.read()
    except OSError as e:
        print(f"{readme_path}: {e}", file=sys.stderr)
        return 2

    problems = check_structure(nb)
    cmd_problems, notes, tagged = [], [], 0
    if isinstance(nb, dict):
        cmd_problems, notes, tagged = check_commands(nb, readme)
    problems += cmd_problems
    for n in notes:
        print(f"note: {n}")
    if problems:
        for p in problems:
            print(f"{nb_path}: {p}", file=sys.stderr)
        print(f"FAIL: {len(problems)} problem(s) in {nb_path}", file=sys.stderr)
        return 1
    print(
        f"ok: {nb_path} is nbformat {nb['nbformat']}.{nb['nbformat_minor']} with "
        f"{len(nb['cells'])} cells; the commands of its {tagged} '{README_TAG}' cell(s) "
        "are README.md's"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
