#!/usr/bin/env python3
"""Prints the Nsight Compute counters that show which level served each
profiled kernel, one row per launch, from the CSV that
`ncu --import REPORT --csv --page raw` writes (run_device.sh --counters)."""
import csv
import sys

COLUMNS = [
    ("l1 ld sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("l1 hits", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"),
    ("l2 rd sectors", "lts__t_sectors_srcunit_tex_op_read.sum"),
    ("l2 rd hits", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"),
    ("fabric sectors", "lts__t_sectors_srcunit_ltcfabric.sum"),
    ("dram sectors", "dram__sectors_read.sum"),
    ("smem wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
    ("smem ld inst", "smsp__inst_executed_op_shared_ld.sum"),
]


def number(text):
    return float(text.replace(",", "")) if text else float("nan")


def main(path):
    rows = list(csv.reader(open(path, newline="")))
    index = {name: i for i, name in enumerate(rows[0])}
    print("id  kernel                          grid  " + "  ".join(f"{c:>15}" for c, _ in COLUMNS))
    for row in rows[2:]:
        name = row[index["Kernel Name"]].split("(")[0]
        grid = row[index["launch__grid_size"]]
        cells = [f"{number(row[index[m]]):15.0f}" if m in index else f"{'-':>15}" for _, m in COLUMNS]
        print(f"{row[index['ID']]:>3} {name:32.32s} {grid:>5}  " + "  ".join(cells))


if __name__ == "__main__":
    for p in sys.argv[1:]:
        print(p)
        main(p)
