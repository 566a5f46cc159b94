#!/usr/bin/env python3
"""Per-source-line memory counters from Nsight Compute reports.

    ncu_lines.py [--dump] [--codebase NAME --program NAME] REPORT.ncu-rep... > rows.tsv

Reads reports written by `ncu --section SourceCounters` of programs built
with -lineinfo, through Nsight Compute's own Python module (ncu_report, in
the extras/python folder of the installation: put it on PYTHONPATH), and
writes one row per (kernel, source file, source line, memory space) over
the memory instructions of the SASS, summed over the instructions of that
line:

  codebase program kernel file line space ops widths inst_executed
  requests_kind units ideal excess

space:  global | shared | local | constant | generic | texture
ops:    the SASS opcodes of the line's instructions (comma-separated, sorted)
widths: the access widths in bytes found in those opcodes (1,2,4,8,16)
inst_executed: warp-level instructions executed (sum over the line's
        memory instructions of that space)
units:  L2 theoretical sectors (global, local) or L1 shared wavefronts
        (shared); ideal: the same counter's ideal; excess = units - ideal

--dump prints, for the first profiled kernel of each report, every metric
name with its instance count and whether it is keyed by program counter,
then exits: it is how the metric names below were checked (README.md).
"""
import os
import re
import sys

try:
    import ncu_report
except ImportError:
    ncu_report = None

# per-PC (instanced, keyed by PC) metrics of the SourceCounters section
M_INST = "inst_executed"
SPACE_METRICS = {
    "global": ("memory_l2_theoretical_sectors_global", "memory_l2_theoretical_sectors_global_ideal"),
    "local": ("memory_l2_theoretical_sectors_local", "memory_l2_theoretical_sectors_local_ideal"),
    "shared": ("memory_l1_wavefronts_shared", "memory_l1_wavefronts_shared_ideal"),
}

OPCODE_SPACE = [
    (re.compile(r"^(LDG|STG|ATOMG|REDG|RED|LDGSTS|LDGDEPBAR|UBLKCP|UTMALDG|UTMASTG)\b"), "global"),
    (re.compile(r"^(LDS|STS|ATOMS|LDSM|STSM)\b"), "shared"),
    (re.compile(r"^(LDL|STL)\b"), "local"),
    (re.compile(r"^(LDC|ULDC)\b"), "constant"),
    (re.compile(r"^(LD|ST|ATOM)\b"), "generic"),
    (re.compile(r"^(TEX|TLD|TLD4|TXQ|TXD|SULD|SUST|SURED|SUATOM)\b"), "texture"),
]
WIDTH_MOD = {"U8": 1, "S8": 1, "U16": 2, "S16": 2, "64": 8, "128": 16, "32": 4}


def opcode_of(sass):
    """'@P0 LDG.E.128.CONSTANT R4, desc[UR4][R2.64] ;' -> ('LDG', ['E','128','CONSTANT'])"""
    s = sass.strip()
    s = re.sub(r"^@!?U?P[T0-9]+\s+", "", s)
    tok = s.split()[0] if s.split() else ""
    parts = tok.split(".")
    return parts[0], parts[1:]


def space_of(op):
    for rx, sp in OPCODE_SPACE:
        if rx.match(op):
            return sp
    return None


def width_of(op, mods):
    if op in ("LDSM", "STSM", "LDGSTS") and not any(m in WIDTH_MOD for m in mods):
        return 16 if op != "LDGSTS" else 4
    for m in mods:
        if m in WIDTH_MOD:
            return WIDTH_MOD[m]
    return 4


def instanced(action, name):
    """{pc: value} of an instanced metric keyed by PC, {} when absent."""
    m = action.metric_by_name(name)
    if m is None or not m.has_correlation_ids():
        return {}
    ids = m.correlation_ids()
    out = {}
    for i in range(m.num_instances()):
        pc = ids.as_uint64(i)
        out[pc] = out.get(pc, 0) + m.as_double(i)
    return out


def dump(path):
    ctx = ncu_report.load_report(path)
    rng = ctx.range_by_idx(0)
    act = rng.action_by_idx(0)
    print("report", path, "ranges", ctx.num_ranges(), "actions in range 0", rng.num_actions())
    print("action", act.name())
    for n in sorted(act.metric_names()):
        m = act.metric_by_name(n)
        ni = m.num_instances()
        corr = m.has_correlation_ids()
        if ni > 0 or corr or re.search(r"sass|sector|wavefront|idc|inst_executed|memory_", n):
            try:
                v = m.as_string() if ni == 0 else ""
            except Exception:
                v = "?"
            print("metric", n, "instances", ni, "by_pc", corr, v[:60])


KERNEL_METRICS = ["launch__block_size", "launch__grid_size", "launch__registers_per_thread",
                  "idc__requests.sum", "smsp__inst_executed_op_ldc.sum", "gpu__time_duration.sum"]


def scalar(action, name):
    m = action.metric_by_name(name)
    if m is None:
        return "-"
    try:
        v = m.as_double()
    except Exception:
        return "-"
    return "%g" % v


def demangled(action):
    try:
        return action.name(ncu_report.IAction.NameBase_DEMANGLED)
    except Exception:
        return action.name()


def rows(path, codebase, program, kernels=None, pcs=None):
    ctx = ncu_report.load_report(path)
    out = []
    seen = set()
    for r in range(ctx.num_ranges()):
        rng = ctx.range_by_idx(r)
        for a in range(rng.num_actions()):
            act = rng.action_by_idx(a)
            kname = act.name()
            sig = demangled(act)
            if sig in seen:             # the first launch of each kernel only
                continue
            seen.add(sig)
            if kernels is not None:
                kernels.append([codebase, program, kname, sig] + [scalar(act, m) for m in KERNEL_METRICS])
            inst = instanced(act, M_INST)
            per = {sp: (instanced(act, u), instanced(act, i)) for sp, (u, i) in SPACE_METRICS.items()}
            lines = {}
            for pc, n in inst.items():
                sass = act.sass_by_pc(pc) or ""
                op, mods = opcode_of(sass)
                sp = space_of(op)
                if sp is None:
                    continue
                si = act.source_info(pc)
                if si is None:
                    f, ln = "?", 0
                else:
                    f, ln = si.file_name(), si.line()
                key = (f, ln, sp)
                if pcs is not None:
                    pcs.append([codebase, program, kname, "%x" % pc, f, str(ln), sp, sass.strip().replace("\t", " "), "%d" % n]
                               + ["%d" % per[s2][k].get(pc, 0.0) for s2 in ("global", "shared", "local") for k in (0, 1)])
                e = lines.setdefault(key, {"ops": set(), "widths": set(), "inst": 0.0, "units": 0.0, "ideal": 0.0})
                e["ops"].add(op + ("." + ".".join(m for m in mods if m in WIDTH_MOD) if any(m in WIDTH_MOD for m in mods) else ""))
                e["widths"].add(width_of(op, mods))
                e["inst"] += n
                if sp in per:
                    e["units"] += per[sp][0].get(pc, 0.0)
                    e["ideal"] += per[sp][1].get(pc, 0.0)
                elif sp == "generic":
                    # generic accesses: count what the counters attribute to each space
                    for s2 in ("global", "shared", "local"):
                        e["units"] += per[s2][0].get(pc, 0.0)
                        e["ideal"] += per[s2][1].get(pc, 0.0)
            for (f, ln, sp), e in sorted(lines.items()):
                if e["inst"] <= 0:
                    continue
                kind = {"global": "sectors", "local": "sectors", "shared": "wavefronts", "generic": "sectors+wavefronts"}.get(sp, "-")
                out.append([codebase, program, kname, f, str(ln), sp,
                            ",".join(sorted(e["ops"])), ",".join(str(w) for w in sorted(e["widths"])),
                            "%d" % e["inst"], kind, "%d" % e["units"], "%d" % e["ideal"],
                            "%d" % (e["units"] - e["ideal"])])
    return out


KERNEL_HEADER = ["codebase", "program", "kernel", "signature", "block", "grid", "registers",
                 "idc_requests", "ldc_inst", "duration_ns"]
PC_HEADER = ["codebase", "program", "kernel", "pc", "file", "line", "space", "sass", "inst_executed",
             "global_sectors", "global_ideal", "shared_wavefronts", "shared_ideal", "local_sectors", "local_ideal"]
HEADER = ["codebase", "program", "kernel", "file", "line", "space", "ops", "widths",
          "inst_executed", "units_kind", "units", "ideal", "excess"]


def main(argv):
    args = list(argv)
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if args else 2
    if args[0] == "--dump":
        if ncu_report is None:
            sys.stderr.write("ncu_lines.py: error: cannot import ncu_report (put Nsight Compute's extras/python on PYTHONPATH)\n")
            return 2
        for p in args[1:]:
            dump(p)
        return 0
    codebase = program = "-"
    header = True
    kfile = pfile = None
    while args and args[0].startswith("--"):
        o = args.pop(0)
        if o == "--codebase" and args:
            codebase = args.pop(0)
        elif o == "--program" and args:
            program = args.pop(0)
        elif o == "--kernels" and args:
            kfile = args.pop(0)
        elif o == "--pcs" and args:
            pfile = args.pop(0)
        elif o == "--no-header":
            header = False
        else:
            sys.stderr.write("ncu_lines.py: error: unknown option %s\n" % o)
            return 2
    if not args:
        sys.stderr.write("ncu_lines.py: error: no report given\n")
        return 2
    if ncu_report is None:
        sys.stderr.write("ncu_lines.py: error: cannot import ncu_report (put Nsight Compute's extras/python on PYTHONPATH)\n")
        return 2
    for p in args:
        if not os.path.exists(p):
            sys.stderr.write("ncu_lines.py: error: %s: no such report\n" % p)
            return 2
    out, ks, ps = [], [], []
    for p in args:
        out += rows(p, codebase, program, ks, ps)
    w = sys.stdout
    if header:
        w.write("\t".join(HEADER) + "\n")
    for r in out:
        w.write("\t".join(r) + "\n")
    for fname, hdr, data in ((kfile, KERNEL_HEADER, ks), (pfile, PC_HEADER, ps)):
        if fname:
            new = not os.path.exists(fname) or os.path.getsize(fname) == 0
            with open(fname, "a") as f:
                if new and header:
                    f.write("\t".join(hdr) + "\n")
                for r in data:
                    f.write("\t".join(r) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
