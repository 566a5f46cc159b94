#!/usr/bin/env python3
"""Score a warplint binary against the truth table (the H100's per-line counters).

    advisor/truth/score.py WARPLINT [--label NAME] [--jobs N] [--shim] [--only CODEBASE] [--out DIR] [--reuse]

Runs `WARPLINT check --format=json` on the sources of every program of
programs.tsv that has rows in the truth table (with the program's include
folders and definitions), maps each G_3, S_1 and G_2 finding to its source
line and each C_3 finding to its kernel, and compares them with what the
hardware measured, under the mapping fixed in README.md ("The mapping").
Writes (under --out DIR, default advisor/truth/results) NAME/lines.tsv (every line or kernel either side flags, with
the counters and the class), results/NAME/summary.md (the per-rule table)
and results/NAME/findings.jsonl (warplint's raw findings), each through a
temporary file renamed at the end. Prints the summary.

--reuse takes warplint's findings from NAME/findings.jsonl of an earlier
scoring instead of running warplint again (after editing judged.tsv).

Disagreements judged by reading the code are in judged.tsv (rule, code base,
file, line or kernel, side, class, reason); they are joined by key, so a new
warplint's result reuses the judgements of lines it still disagrees on, and
its new disagreements are listed as "unjudged".

Exit status: 0 done, 2 usage error, missing input, or a warplint that
cannot be run.
"""
import collections
import concurrent.futures as cf
import gzip
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import ncu_lines  # noqa: E402  (opcode parsing only; ncu_report is not needed here)

# --- the mapping (README.md, "The mapping"); fixed before the first score ---
MIN_WARP_INST = 1000        # a line counts only if its memory instructions of that space ran >= 1,000 times (warp-level)
MIN_EXCESS = 0.25           # G_3, S_1: excess >= 25% of the line's ideal sectors / wavefronts
NARROW_SLACK = 1.25         # G_2: sectors per request <= width (bytes) x 1.25 on the line's 1- and 2-byte global accesses
C3_MIN_LDC = 1000           # C_3 (per kernel): LDC warp instructions >= 1,000 and
C3_MIN_EXTRA = 0.25         #   idc__requests - LDC >= 25% of LDC (the indexed-constant cache serialised)

CODEBASE_ROOTS = {"hecbench": ".realcode/hecbench", "cuda-samples": ".realcode/cuda-samples", "warpmem": "."}
RULES = ("G_3", "S_1", "G_2", "C_3")


def die(msg):
    sys.stderr.write("score.py: error: %s\n" % msg)
    sys.exit(2)


def norm(path, roots):
    """An absolute path from a report or from warplint -> (codebase, path in the code base)."""
    p = os.path.normpath(path)
    if "/.realcode/" in p:
        rest = p.split("/.realcode/", 1)[1]
        cb, _, rel = rest.partition("/")
        return cb, rel
    for r in roots:
        if p.startswith(r.rstrip("/") + "/"):
            return "warpmem", p[len(r.rstrip("/")) + 1:]
    if p.startswith("/usr/") or p.startswith("/opt/"):
        return "toolkit", p
    return "other", p


def read_tsv_gz(path):
    with gzip.open(path, "rt") as f:
        hdr = f.readline().rstrip("\n").split("\t")
        for line in f:
            yield dict(zip(hdr, line.rstrip("\n").split("\t")))


def load_programs(path):
    progs = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        c = line.rstrip("\n").split("\t")
        progs.append({"codebase": c[0], "program": c[1], "binary": c[2], "args": c[3],
                      "sources": c[4].split(), "defines": [] if c[5] == "-" else c[5].split(),
                      "includes": [] if c[6] == "-" else c[6].split(",")})
    return progs


def lint(warplint, prog, shim):
    root = os.path.join(REPO, CODEBASE_ROOTS[prog["codebase"]])
    files = [os.path.join(root, s) for s in prog["sources"] if s.endswith(".cu")]
    files = [f for f in files if os.path.exists(f)]
    if not files:
        return prog, [], "no .cu source found"
    extra = ["-I" + os.path.join(root, i) for i in prog["includes"]] + prog["defines"]
    cmd = [warplint, "check", "--format=json"] + (["--shim"] if shim else []) + files + ["--"] + extra
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    except subprocess.TimeoutExpired:
        return prog, [], "timeout"
    try:
        d = json.loads(r.stdout)
    except ValueError:
        return prog, [], "no JSON (exit %d): %s" % (r.returncode, r.stderr.strip()[:200])
    return prog, d.get("findings", []), ""


def main(argv):
    args = list(argv)
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if args else 2
    warplint = os.path.abspath(args.pop(0))
    label, jobs, shim, only, outroot, reuse = "current", 2, False, None, None, False
    truth_dir = HERE
    while args:
        o = args.pop(0)
        if o == "--label" and args:
            label = args.pop(0)
        elif o == "--jobs" and args:
            jobs = int(args.pop(0))
        elif o == "--shim":
            shim = True
        elif o == "--reuse":
            reuse = True
        elif o == "--only" and args:
            only = args.pop(0)
        elif o == "--out" and args:
            outroot = os.path.abspath(args.pop(0))
        elif o == "--truth" and args:
            truth_dir = os.path.abspath(args.pop(0))
        else:
            die("unknown argument %s (see --help)" % o)
    if not (os.path.isfile(warplint) and os.access(warplint, os.X_OK)):
        die("%s: not an executable warplint" % warplint)
    r = subprocess.run([warplint, "--version"], capture_output=True, text=True)
    if r.returncode != 0:
        die("%s --version failed" % warplint)
    version = r.stdout.strip().splitlines()[0] if r.stdout.strip() else "?"
    lines_f = os.path.join(truth_dir, "data", "truth-lines.tsv.gz")
    pcs_f = os.path.join(truth_dir, "data", "truth-pcs.tsv.gz")
    kern_f = os.path.join(truth_dir, "data", "truth-kernels.tsv.gz")
    env_f = os.path.join(truth_dir, "data", "env.txt")
    for f in (lines_f, pcs_f, kern_f):
        if not os.path.exists(f):
            die("%s: no such file" % f)
    roots = [REPO, "/work/main"]
    if os.path.exists(env_f):
        for l in open(env_f):
            if l.startswith("root "):
                roots += l.split()[1:]

    progs = [p for p in load_programs(os.path.join(truth_dir, "programs.tsv")) if not only or p["codebase"] == only]
    # --- the hardware's side ---
    glob_ = collections.defaultdict(lambda: {"inst": 0, "units": 0, "ideal": 0, "kernels": set()})
    shar = collections.defaultdict(lambda: {"inst": 0, "units": 0, "ideal": 0, "kernels": set()})
    narrow = collections.defaultdict(lambda: {"inst": 0, "units": 0, "width": 99})
    executed_programs = set()
    for row in read_tsv_gz(lines_f):
        cb, rel = norm(row["file"], roots)
        executed_programs.add((row["codebase"], row["program"]))
        key = (cb, rel, int(row["line"]))
        tgt = {"global": glob_, "shared": shar}.get(row["space"])
        if tgt is None:
            continue
        e = tgt[key]
        e["inst"] += int(row["inst_executed"])
        e["units"] += int(row["units"])
        e["ideal"] += int(row["ideal"])
        e["kernels"].add(row["kernel"])
    for row in read_tsv_gz(pcs_f):
        if row["space"] != "global":
            continue
        op, mods = ncu_lines.opcode_of(row["sass"])
        w = ncu_lines.width_of(op, mods)
        if w > 2:
            continue
        cb, rel = norm(row["file"], roots)
        e = narrow[(cb, rel, int(row["line"]))]
        e["inst"] += int(row["inst_executed"])
        e["units"] += int(row["global_sectors"])
        e["width"] = min(e["width"], w)
    kern = {}
    for row in read_tsv_gz(kern_f):
        k = (row["codebase"], row["program"], row["kernel"])
        try:
            idc, ldc = float(row["idc_requests"]), float(row["ldc_inst"])
        except ValueError:
            idc = ldc = 0.0
        e = kern.setdefault(k, {"idc": 0.0, "ldc": 0.0})
        e["idc"] += idc
        e["ldc"] += ldc

    def hw_excess(e):
        return e["inst"] >= MIN_WARP_INST and e["ideal"] > 0 and (e["units"] - e["ideal"]) >= MIN_EXCESS * e["ideal"]

    def hw_narrow(e):
        return e["inst"] >= MIN_WARP_INST and e["units"] <= NARROW_SLACK * e["width"] * e["inst"]

    def hw_c3(e):
        return e["ldc"] >= C3_MIN_LDC and (e["idc"] - e["ldc"]) >= C3_MIN_EXTRA * e["ldc"]

    # --- warplint's side ---
    scored = [p for p in progs if (p["codebase"], p["program"]) in executed_programs]
    static = {r: collections.defaultdict(list) for r in RULES}
    lint_errors = []
    raw = []
    def lint_all():
        prev = os.path.join(outroot or os.path.join(HERE, "results"), label, "findings.jsonl")
        if reuse and os.path.exists(prev):
            by = collections.defaultdict(list)
            for l in open(prev):
                f = json.loads(l)
                by[(f.get("codebase_of_program"), f.get("program"))].append(f)
            for p in scored:
                yield p, [{k: v for k, v in f.items() if k not in ("program", "codebase_of_program")}
                          for f in by.get((p["codebase"], p["program"]), [])], ""
            return
        with cf.ThreadPoolExecutor(jobs) as ex:
            for item in ex.map(lambda p: lint(warplint, p, shim), scored):
                yield item

    if True:
        for prog, findings, err in lint_all():
            if err:
                lint_errors.append("%s/%s: %s" % (prog["codebase"], prog["program"], err))
            for f in findings:
                raw.append(dict(f, program=prog["program"], codebase_of_program=prog["codebase"]))
                if f.get("rule") not in RULES or f.get("severity") != "warning":
                    continue
                cb, rel = norm(os.path.abspath(f["file"]), roots)
                if f["rule"] == "C_3":
                    key = (prog["codebase"], prog["program"], f.get("kernel") or "?")
                else:
                    key = (cb, rel, int(f["line"]))
                static[f["rule"]][key].append(f)

    # --- judgements ---
    judged = {}
    judged_specific = set()
    jf = os.path.join(truth_dir, "judged.tsv")
    if os.path.exists(jf):
        for l in open(jf):
            if l.startswith("#") or not l.strip():
                continue
            c = l.rstrip("\n").split("\t")
            # an 8th column names the scoring (label) a judgement applies to; none or '*': all
            if len(c) >= 7 and (len(c) < 8 or c[7] in ("*", "", label)):
                key = (c[0], c[1], c[2], c[3], c[4])
                specific = len(c) >= 8 and c[7] == label
                if specific or key not in judged_specific:   # a judgement for this scoring wins over a general one
                    judged[key] = (c[5], c[6])
                if specific:
                    judged_specific.add(key)

    out_rows = []
    summary = {}
    for rule in RULES:
        counts = collections.Counter()
        classes = collections.Counter()
        if rule == "C_3":
            universe = set(kern) | set(static[rule])
            for k in sorted(universe):
                e = kern.get(k)
                hw = bool(e) and hw_c3(e)
                st = k in static[rule]
                cell = {(True, True): "both", (False, True): "static-only", (True, False): "hw-only", (False, False): "neither"}[(hw, st)]
                counts[cell] += 1
                if cell == "neither":
                    continue
                auto = ""
                if cell == "static-only" and e is None:
                    auto = "not executed"
                jkey = (rule, k[0], k[1], k[2], cell)
                cls, why = judged.get(jkey, (auto, "automatic" if auto else ""))
                if cell in ("static-only", "hw-only"):
                    classes[cls or "unjudged"] += 1
                ratio = "-" if not e or not e["ldc"] else "%.2f" % (e["idc"] / e["ldc"])
                out_rows.append([rule, cell, k[0], k[1], k[2], "-", "%d" % (e["ldc"] if e else 0),
                                 "%d" % (e["idc"] if e else 0), "-", ratio, cls or "", why,
                                 (static[rule][k][0]["message"][:160] if st else "")])
        else:
            table = shar if rule == "S_1" else (narrow if rule == "G_2" else glob_)
            allspace = shar if rule == "S_1" else glob_
            universe = set(table) | set(static[rule])
            universe = {k for k in universe if k[0] not in ("toolkit", "other")}
            for k in sorted(universe):
                e = table.get(k)
                hw = bool(e) and (hw_narrow(e) if rule == "G_2" else hw_excess(e))
                st = k in static[rule]
                cell = {(True, True): "both", (False, True): "static-only", (True, False): "hw-only", (False, False): "neither"}[(hw, st)]
                counts[cell] += 1
                if cell == "neither":
                    continue
                ea = allspace.get(k)
                auto = ""
                if cell == "static-only":
                    if ea is None:
                        auto = "not executed"
                    elif ea["inst"] < MIN_WARP_INST:
                        auto = "input/launch-dependent"
                jkey = (rule, k[0], k[1], str(k[2]), cell)
                cls, why = judged.get(jkey, (auto, ("automatic: " + ("no instruction of this space ran on this line" if auto == "not executed" else "the run executed this line fewer than 1,000 times")) if auto else ""))
                if cell in ("static-only", "hw-only"):
                    classes[cls or "unjudged"] += 1
                if e and rule == "G_2":
                    num = ["%d" % e["inst"], "%d" % e["units"], "%d" % e["width"], "%.2f" % (e["units"] / max(e["inst"], 1))]
                elif e:
                    num = ["%d" % e["inst"], "%d" % e["units"], "%d" % e["ideal"],
                           "%.0f%%" % (100.0 * (e["units"] - e["ideal"]) / e["ideal"]) if e["ideal"] else "-"]
                else:
                    num = ["0", "0", "0", "-"]
                kernels = ",".join(sorted(ea["kernels"]))[:80] if ea else ""
                out_rows.append([rule, cell, k[0], k[1], str(k[2]), kernels] + num + [cls or "", why,
                                 (static[rule][k][0]["message"][:160] if st else "")])
        b, s, h = counts["both"], counts["static-only"], counts["hw-only"]
        s_run = s - sum(1 for r in out_rows if r[0] == rule and r[1] == "static-only" and r[10] == "not executed")
        summary[rule] = (counts, classes,
                         b / (b + s) if b + s else float("nan"), b / (b + h) if b + h else float("nan"),
                         b / (b + s_run) if b + s_run else float("nan"))

    outdir = os.path.join(outroot or os.path.join(HERE, "results"), label)
    os.makedirs(outdir, exist_ok=True)

    def write(name, text):
        tmp = os.path.join(outdir, "." + name + ".tmp")
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, os.path.join(outdir, name))

    src_cache = {}

    def source_line(cb, rel, ln):
        root = CODEBASE_ROOTS.get(cb)
        if root is None:
            return ""
        path = os.path.join(REPO, root, rel)
        if path not in src_cache:
            try:
                src_cache[path] = open(path, errors="replace").read().split("\n")
            except OSError:
                src_cache[path] = []
        text = src_cache[path]
        return text[ln - 1].strip()[:140].replace("\t", " ") if 0 < ln <= len(text) else ""

    for r in out_rows:
        r.append(source_line(r[2], r[3], int(r[4])) if r[0] != "C_3" else "")
    hdr = ["rule", "cell", "codebase", "file_or_program", "line_or_kernel", "kernels", "inst_or_ldc",
           "units_or_idc", "ideal_or_width", "excess_or_ratio", "class", "reason", "warplint_message", "source"]
    write("lines.tsv", "\t".join(hdr) + "\n" + "".join("\t".join(r) + "\n" for r in out_rows))
    write("findings.jsonl", "".join(json.dumps(f, sort_keys=True) + "\n" for f in raw))
    n_k = len(kern)
    cbs = sorted({k[0] for k in kern})
    md = ["# warplint against the H100's counters: %s" % label, "",
          "warplint: `%s` (%s)%s; truth: %d kernels of %d programs, code bases %s." % (
              os.path.relpath(warplint, REPO) if warplint.startswith(REPO) else warplint, version,
              " with --shim" if shim else "", n_k, len(executed_programs), ", ".join(cbs)), "",
          "| rule | both | static only | hardware only | neither | precision | precision, executed lines | recall |",
          "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for rule in RULES:
        c, cl, p, rc, pe = summary[rule]
        f = lambda x: "-" if x != x else "%.2f" % x
        md.append("| %s | %d | %d | %d | %d | %s | %s | %s |" % (rule, c["both"], c["static-only"], c["hw-only"], c["neither"], f(p), f(pe), f(rc)))
    md += ["", "Disagreements by class (static only and hardware only together):", "",
           "| rule | " + " | ".join(["static miss", "static false alarm", "input/launch-dependent", "compiler-changed", "not executed", "mapping's limit", "unjudged"]) + " |",
           "| --- |" + " ---: |" * 7]
    for rule in RULES:
        cl = summary[rule][1]
        md.append("| %s | %s |" % (rule, " | ".join(str(cl.get(x, 0)) for x in ["static miss", "static false alarm", "input/launch-dependent", "compiler-changed", "not executed", "mapping's limit", "unjudged"])))
    if lint_errors:
        md += ["", "Programs warplint could not analyse: " + "; ".join(lint_errors)]
    write("summary.md", "\n".join(md) + "\n")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
