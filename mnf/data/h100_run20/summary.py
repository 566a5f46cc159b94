"""Run 20's table from results.jsonl: per build and round, image by image,
the transfer floor, CUDA-MNF (one Dsygvd) end to end and its ratio to the
floor, the S8 + download phase (wall clock) and S8 by CUDA events."""
import json, sys, statistics
rows = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    v, r, img = d["run20"]["version"], d["run20"]["round"], d["params"]["image"]
    e = rows.setdefault((v, r, img), {})
    if d["name"] == "transfer_floor":
        e["floor"], e["down"] = d["floor_ms"], d["download_ms"]
    elif d["name"] == "cuda_mnf_solver_cusolver":
        e["one"], e["s8"] = d["median"], d["phase_s8_download_ms"]
        e["first"], e["dev"] = d.get("s8_first_chunk_ms"), d.get("s8_device_ms")
    elif d["name"] == "cuda_mnf_solver_cusolver_two_syevd":
        e["two"], e["s8two"] = d["median"], d["phase_s8_download_ms"]
print("device:", json.loads(open(sys.argv[1]).readline())["device"])
print("\n| build | round | image | floor | download floor | CUDA-MNF (Dsygvd) | / floor | S8+download (wall) | S8 first chunk (events) | S8 to last byte (events) | two Dsyevd | / floor |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
f = lambda x, p=3: "—" if x is None else f"{x:.{p}f}"
for (v, r, img), e in sorted(rows.items(), key=lambda k: (k[0][2], k[0][0], k[0][1])):
    print(f"| {v} | {r} | {img} | {f(e.get('floor'))} | {f(e.get('down'))} | {f(e.get('one'))} | {f(e['one'] / e['floor'])}x | "
          f"{f(e.get('s8'))} | {f(e.get('first'))} | {f(e.get('dev'))} | {f(e.get('two'))} | {f(e['two'] / e['floor'])}x |")
print("\nImage 1, medians over the rounds:\n\n| build | rounds | CUDA-MNF (Dsygvd) | / floor | S8+download (wall) | S8 first chunk | S8 to last byte | download floor |")
print("|---|---|---|---|---|---|---|---|")
for v in ("main", "before", "after"):
    es = [e for (vv, r, img), e in rows.items() if vv == v and img == 1]
    if not es: continue
    med = lambda k: statistics.median([e[k] for e in es]) if all(e.get(k) is not None for e in es) else None
    ratio = statistics.median([e["one"] / e["floor"] for e in es])
    print(f"| {v} | {len(es)} | {f(med('one'))} | {f(ratio)}x | {f(med('s8'))} | {f(med('first'))} | {f(med('dev'))} | {f(med('down'))} |")
