#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# bpf-grant's manual page (policy/bpf-grant.8) and its --help (the strings
# of help() and synopsis in policy/bpf-grant.c) say the same as the code:
#   - the options: getopt_long's table, every --option in --help, every
#     --option in the manual page: the same three sets;
#   - the commands (add, remove, list) main() takes, in both synopses;
#   - the exit codes: enum bpf_grant_exit of policy/grant_policy.h, and
#     the numbers of --help's "Exit status:" and the page's EXIT STATUS;
#   - the default map and program types (default_map_types[],
#     default_prog_types[]) and the root-equivalent program types
#     (root_equiv[]), as both list them;
#   - the figures: --max-btf-bytes' default (DEFAULT_MAX_BTF), the levels
#     the policy looks at (GRANT_MAX_LEVEL), the rules it holds
#     (GRANT_MAX_RULES).
# And, where groff and man are installed, that the page renders without
# a warning.
import os
import re
import shutil
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(TOP, "policy", "bpf-grant.c")
HDR = os.path.join(TOP, "policy", "grant_policy.h")
MAN = os.path.join(TOP, "policy", "bpf-grant.8")

n = failed = 0


def check(what, ok, detail=""):
    global n, failed
    n += 1
    if ok:
        print("ok %d %s" % (n, what))
    else:
        failed += 1
        print("not ok %d %s%s" % (n, what, ": " + detail if detail else ""))


def same(what, code, help_, man):
    """Check that three sets are equal; say what each lacks"""
    code, help_, man = set(code), set(help_), set(man)
    problems = []
    for name, s in (("--help", help_), ("the manual page", man)):
        if s - code:
            problems.append("%s has %s, the code not" % (name, sorted(s - code)))
        if code - s:
            problems.append("%s lacks %s" % (name, sorted(code - s)))
    check("%s: the code, --help and the manual page agree (%d)" % (what, len(code)),
          code and not problems, "; ".join(problems))


src = open(SRC).read()
hdr = open(HDR).read()
man_src = open(MAN).read()


def c_strings(text):
    """The C string literals of @text, concatenated, escapes decoded;
    a macro between them (PIN_DIR) stands as its name"""
    out = []
    for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"|\b([A-Z_]+_DIR)\b', text):
        if m.group(1) is None:
            out.append(m.group(2))
        else:
            out.append(m.group(1).encode().decode("unicode_escape"))
    return "".join(out)


def body(start, end):
    i = src.index(start)
    return src[i:src.index(end, i)]


synopsis = c_strings(body("static const char synopsis[] =", ";\n"))
help_text = synopsis + c_strings(body("static void help(void)", "\n}\n"))

# The manual page as text: roff requests and escapes taken out
man = "\n".join(re.sub(r"^\.[A-Za-z]+ ?", "", line)
                for line in man_src.splitlines() if not line.startswith('.\\"'))
man = man.replace("\\-", "-").replace("\\e", "\\").replace("\\(lq", '"') \
    .replace("\\(rq", '"')
man = re.sub(r"\\f[BIRP]", "", man)


def section(text, title):
    """The text of manual page section @title, up to the next one"""
    m = re.search(r"^\.SH %s\n(.*?)(?=^\.SH |\Z)" % re.escape(title), text,
                  re.S | re.M)
    return m.group(1) if m else ""


def flat(text):
    return " ".join(text.split())


# Options
code_opts = ["--" + o for o in re.findall(r'\{\s*"([a-z-]+)",\s*(?:no|required|optional)_argument',
                                           src)]
same("options", code_opts, re.findall(r"--[a-z][a-z-]*", help_text),
     re.findall(r"--[a-z][a-z-]*", man))

# Commands
code_cmds = re.findall(r'!strcmp\(cmd, "([a-z]+)"\)', src)
help_cmds = re.findall(r"bpf-grant ([a-z]+)", synopsis)
man_cmds = re.findall(r"^\.B bpf-grant ([a-z]+)", section(man_src, "SYNOPSIS"), re.M)
same("commands", code_cmds, help_cmds, man_cmds)

# Exit codes
enum = re.search(r"enum bpf_grant_exit \{(.*?)\};", hdr, re.S).group(1)
enum = re.sub(r"/\*.*?\*/", "", enum, flags=re.S)
code_exits = [str(i) for i, _ in enumerate(re.findall(r"GRANT_EXIT_[A-Z_]+", enum))]
m = re.search(r"Exit status:(.*?)\.\n", help_text, re.S)
help_exits = re.findall(r"(?:^|; )(\d+) ", flat(m.group(1))) if m else []
man_exits = re.findall(r"^\.TP\n\.B (\d+)$", section(man_src, "EXIT STATUS"), re.M)
same("exit codes", code_exits, help_exits, man_exits)


def type_names(array, prefix):
    """The bpftool names of the enum values in array @array of the code"""
    m = re.search(r"\b%s\[\] = \{(.*?)\};" % array, src, re.S)
    return [t.lower() for t in re.findall(r"\b%s([A-Z0-9_]+)" % prefix, m.group(1))] if m else []


def listed(text, after, until):
    """The comma-separated names between @after and @until in @text"""
    m = re.search(re.escape(after) + r"(.*?)" + until, flat(text))
    if not m:
        return []
    return [w for w in re.split(r",\s*(?:and\s+)?|\s+and\s+", m.group(1).strip()) if w]


# --help's options, after its synopsis
opts = help_text[len(synopsis):]
help_map = opts[opts.index("--map-types LIST"):opts.index("--prog-types LIST")]
help_prog = opts[opts.index("--prog-types LIST"):opts.index("--max-map-bytes N")]
man_opts = section(man_src, "OPTIONS")
man_map = man_opts[:man_opts.index(".BI \\-\\-prog\\-types")]
man_prog = man_opts[man_opts.index(".BI \\-\\-prog\\-types"):man_opts.index(".BI \\-\\-max\\-map\\-bytes")]
same("default map types", type_names("default_map_types", "BPF_MAP_TYPE_"),
     listed(help_map, "in place of:", r"\. Only when listed"),
     listed(man_map, "all but\\(rq:", r"\.(?: |$)"))
same("default program types", type_names("default_prog_types", "BPF_PROG_TYPE_"),
     listed(help_prog, "in place of:", r"\. Only when listed"),
     listed(man_prog, "in place of the default:", r"\.(?: |$)"))
same("program types as strong as root", type_names("root_equiv", "BPF_PROG_TYPE_"),
     listed(help_prog, "as strong as root:", r"$"),
     listed(man_prog, "as strong as root:", r"\. "))

# Figures
m = re.search(r"#define DEFAULT_MAX_BTF\s+\(1ULL << (\d+)\)", src)
btf = 1 << int(m.group(1)) if m else None
mib = "%d MiB" % (btf >> 20) if btf and btf % (1 << 20) == 0 else None
check("--max-btf-bytes' default, %s: --help and the manual page say it" % mib,
      mib and re.search(r"--max-btf-bytes N.*default: %s" % mib, help_text)
      and ("Default: %s (%d)" % (mib, btf)) in man)
m = re.search(r"#define GRANT_MAX_LEVEL\s+(\d+)", hdr)
check("the levels the policy looks at (GRANT_MAX_LEVEL): the manual page says it",
      m and ("cgroups %s or more levels deep" % m.group(1)) in flat(man))
m = re.search(r"#define GRANT_MAX_RULES\s+(\d+)", hdr)
check("the rules the policy holds (GRANT_MAX_RULES): the manual page and the tool say it",
      m and ("rules for up to %s cgroups" % m.group(1)) in flat(man)
      and ("the policy holds %s cgroups" % m.group(1)) in src)
check("--help points to the manual page", "bpf-grant(8)" in help_text
      and "man -l policy/bpf-grant.8" in help_text)

# Rendering
if shutil.which("groff") and shutil.which("man"):
    r = subprocess.run(["groff", "-man", "-ww", "-z", MAN], capture_output=True, text=True)
    check("groff -man -ww -z: no warnings", r.returncode == 0 and not r.stderr,
          r.stderr.strip())
    r = subprocess.run(["man", "-l", MAN], capture_output=True, text=True,
                       env=dict(os.environ, MANWIDTH="80", MAN_KEEP_STDERR="1"))
    check("man -l renders it", r.returncode == 0 and "bpf-grant" in r.stdout
          and not r.stderr, r.stderr.strip())
else:
    n += 1
    print("ok %d # SKIP groff or man is not installed: the page was not rendered" % n)

if failed:
    sys.stderr.write("tests/bpf-grant-man.py: %d of %d checks failed\n" % (failed, n))
    sys.exit(1)
print("# bpf-grant-man: %d checks passed" % n)
