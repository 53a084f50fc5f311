#!/usr/bin/env python3
"""Runs the layoutctl end-to-end cases of one case file (format: tests/cli/cases/README.md).

usage: run_cases.py LAYOUTCTL DATA_DIR LEVEL_ZERO(yes|no) CASE_FILE [--case NAME]... [-v]

Prints "ok NAME", "skip NAME: why" or "FAIL NAME: what differed (expected vs got)" per case and
a summary line; exits 1 if any case failed (or the file does not parse), 0 otherwise.
"""
import os
import re
import signal
import subprocess
import sys
import tempfile

DEFAULT_TIMEOUT_S = 300
SHOWN = 600  # characters of output quoted in a failure message


class Case:
    def __init__(self, name, line):
        self.name = name
        self.line = line
        self.script = []  # "$ " lines
        self.stdin = None  # "<" lines, joined with newlines, or None
        self.status = 0
        self.checks = []  # (kind, stream, text): kind in contains, line, empty, size-under
        self.conditions = []  # "if:" shell conditions
        self.timeout = DEFAULT_TIMEOUT_S


def parse(path):
    prelude, cases, errors = [], [], []
    case = None
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            where = f"{path}:{number}"
            m = re.match(r"^# case: (\S+)\s*$", line)
            if m:
                case = Case(m.group(1), number)
                if any(c.name == case.name for c in cases):
                    errors.append(f"{where}: case '{case.name}' defined twice")
                cases.append(case)
                continue
            if line.startswith("$ ") or line == "$":
                (case.script if case else prelude).append(line[2:])
                continue
            if re.match(r"^#\s*case\b", line):
                errors.append(f"{where}: write a case header as '# case: NAME' (NAME without spaces)")
                continue
            if line == "" or line.startswith("#"):
                continue  # blank lines and comments
            if case is None:
                errors.append(f"{where}: only '$ ' prelude lines and comments precede the first case")
                continue
            if line == "<" or line.startswith("< "):
                case.stdin = (case.stdin + "\n" if case.stdin is not None else "") + line[2:]
                continue
            m = re.match(r"^([a-z-]+):(?: (.*))?$", line)
            if not m:
                errors.append(f"{where}: cannot read '{line}'")
                continue
            key, text = m.group(1), m.group(2) if m.group(2) is not None else ""
            if key == "exit":
                case.status = int(text)
            elif key == "timeout":
                case.timeout = int(text)
            elif key == "if":
                case.conditions.append(text)
            elif key in ("out", "err"):
                case.checks.append(["contains", key, text])
            elif key in ("out-next", "err-next"):
                stream = key.split("-")[0]
                if not case.checks or case.checks[-1][:2] != ["contains", stream]:
                    errors.append(f"{where}: {key}: does not follow an '{stream}:' line")
                    continue
                case.checks[-1][2] += "\n" + text
            elif key in ("out-line", "err-line"):
                case.checks.append(["line", key.split("-")[0], text])
            elif key in ("out-empty", "err-empty"):
                case.checks.append(["empty", key.split("-")[0], ""])
            elif key in ("out-size-under", "err-size-under"):
                case.checks.append(["size-under", key.split("-")[0], int(text)])
            else:
                errors.append(f"{where}: unknown directive '{key}:'")
    for c in cases:
        if not c.script:
            errors.append(f"{path}:{c.line}: case '{c.name}' has no '$ ' command")
    return prelude, cases, errors


def shorten(text):
    text = text if len(text) <= SHOWN else text[:SHOWN] + f"... ({len(text)} chars)"
    return repr(text)


def substitute(text, env):
    return text.replace("$TMP", env["TMP"]).replace("$DATA", env["DATA"])


def bash(script, env, stdin, timeout):
    """Runs script with bash in its own process group, killed whole after timeout seconds."""
    proc = subprocess.Popen(["bash", "-c", script], env=env, cwd=env["TMP"],
                            stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        out, err = proc.communicate((stdin + "\n").encode() if stdin is not None else None,
                                    timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def run_case(case, prelude, env, verbose):
    """Returns (outcome, message): outcome is "ok", "skip" or "FAIL"."""
    script_head = "\n".join(prelude) + "\n"
    for condition in case.conditions:
        if bash(script_head + condition, env, None, 60).returncode != 0:
            return "skip", f"condition not met: {condition}"
    try:
        result = bash(script_head + "\n".join(case.script), env, case.stdin, case.timeout)
    except subprocess.TimeoutExpired:
        return "FAIL", f"still running after {case.timeout} s"
    out = result.stdout.decode("utf-8", "replace")
    err = result.stderr.decode("utf-8", "replace")
    streams = {"out": out, "err": err}
    if verbose:
        print(f"--- {case.name}: exit {result.returncode}\n--- stdout:\n{out}--- stderr:\n{err}---")
    problems = []
    if result.returncode != case.status:
        problems.append(f"exit status: expected {case.status}, got {result.returncode}")
    for kind, stream, want in case.checks:
        got = streams[stream]
        label = "stdout" if stream == "out" else "stderr"
        if kind == "contains":
            want = substitute(want, env)
            if want not in got:
                problems.append(f"{label}: expected to contain {shorten(want)}, got {shorten(got)}")
        elif kind == "line":
            want = substitute(want, env)
            if want not in got.splitlines():
                problems.append(f"{label}: expected the line {shorten(want)}, got {shorten(got)}")
        elif kind == "empty":
            if got:
                problems.append(f"{label}: expected empty, got {shorten(got)}")
        elif kind == "size-under":
            size = len(result.stdout if stream == "out" else result.stderr)
            if size >= want:
                problems.append(f"{label}: expected under {want} bytes, got {size}: {shorten(got)}")
    if problems:  # quote the streams no problem quoted yet: they often explain
        for stream, label in (("out", "stdout"), ("err", "stderr")):
            if streams[stream] and not any(p.startswith(label) for p in problems):
                problems.append(f"({label}: {shorten(streams[stream])})")
    return ("FAIL", "; ".join(problems)) if problems else ("ok", "")


def main(argv):
    args, only, verbose = [], [], False
    i = 1
    while i < len(argv):
        if argv[i] == "--case" and i + 1 < len(argv):
            only.append(argv[i + 1])
            i += 2
            continue
        if argv[i] == "-v":
            verbose = True
        else:
            args.append(argv[i])
        i += 1
    if len(args) != 4 or args[2] not in ("yes", "no"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    layoutctl, data, level_zero, case_file = args
    prelude, cases, errors = parse(case_file)
    for e in errors:
        print(f"FAIL (case file) {e}")
    if errors:
        return 1
    if only:
        missing = [n for n in only if n not in {c.name for c in cases}]
        if missing:
            print(f"FAIL (case file): no case named {', '.join(missing)}")
            return 1
        cases = [c for c in cases if c.name in only]
    layoutctl = os.path.abspath(layoutctl)
    counts = {"ok": 0, "skip": 0, "FAIL": 0}
    with tempfile.TemporaryDirectory(prefix="layoutctl_cases.") as root:
        bindir = os.path.join(root, "bin")
        os.mkdir(bindir)
        os.symlink(layoutctl, os.path.join(bindir, "layoutctl"))
        for case in cases:
            tmp = os.path.join(root, "case." + case.name)
            os.mkdir(tmp)
            env = dict(os.environ)
            env.update(PATH=bindir + os.pathsep + env.get("PATH", ""), LAYOUTCTL=layoutctl,
                       DATA=os.path.abspath(data), LEVEL_ZERO=level_zero, TMP=tmp,
                       CASES=os.path.dirname(os.path.abspath(case_file)))
            outcome, message = run_case(case, prelude, env, verbose)
            counts[outcome] += 1
            print(f"{outcome} {case.name}" + (f": {message}" if message else ""), flush=True)
    print(f"{os.path.basename(case_file)}: {counts['ok']} passed, {counts['FAIL']} failed, "
          f"{counts['skip']} skipped")
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
