#!/usr/bin/env python3
"""Measures the corpus against an mty binary, for before/after comparisons
(STATUS.md was made with it, before the type checker).

Usage: measure.py MTY_BINARY      prints a summary line per group and then
one line per program: NAME direct [roundtrip] and, when it fails, the first
error or trap mty printed. Runs each program through run_golden.sh, as ctest
does with -DMTY_TYPES_CORPUS=ON.
"""
import os, re, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
run = os.path.join(here, '..', 'run_golden.sh')
mty = os.path.abspath(sys.argv[1])


def why(out):
    lines = [l for l in out.splitlines() if l.strip()]
    if not lines:
        return ''
    for l in lines:
        m = re.search(r'(error\[MT\d+\].*|trap MT\d+.*)', l)
        if m:
            return lines[0].split(':')[0] + ': ' + m.group(1)[:100]
    return lines[0][:110]


groups = {'ok': [0, 0, 0], 'err': [0, 0], 'upstream': [0, 0]}
rows = []
for n in sorted(f[:-4] for f in os.listdir(here) if f.endswith('.mty')):
    kind = 'ok' if n.startswith('ok_') else 'upstream' if n.startswith('upstream_') else 'err'
    prog = os.path.join(here, n + '.mty')
    p = subprocess.run(['bash', run, mty, prog], capture_output=True, text=True)
    g = groups[kind]
    g[0] += 1
    g[1] += p.returncode == 0
    line = f'{n} {"pass" if p.returncode == 0 else "FAIL"}'
    if kind == 'ok':
        q = subprocess.run(['bash', run, mty, prog, 'roundtrip'], capture_output=True, text=True)
        g[2] += q.returncode == 0
        line += f' roundtrip:{"pass" if q.returncode == 0 else "FAIL"}'
    if p.returncode != 0:
        line += '  # ' + why(p.stdout)
    rows.append(line)
for k, g in groups.items():
    extra = f', round trip {g[2]}' if k == 'ok' else ''
    print(f'{k}: {g[1]}/{g[0]} pass{extra}')
print('\n'.join(rows))
