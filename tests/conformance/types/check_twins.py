#!/usr/bin/env python3
"""Checks the type corpus against its oracle, rustc (README.md).

For every NAME.mty here:
  - accepted (no `// expect-error:` line): rust/NAME.rs compiled with
    `rustc -O --edition 2021` and run must print exactly NAME.out
    (programs with `// rust: none` have no twin and are skipped);
  - rejected: the second line is `// rustc: EXXXX message` and
    `rustc --edition 2021 rust/NAME.rs` must fail with that code first; the
    line of rustc's first error must be the twin's line marked `// <-`, and
    the `// expect-error: LINE` of NAME.mty must be its line marked `// <-`
    (when the program has the marker; the upstream inputs do not).
    `// rustc: none (Mighty only)` programs have no twin.
Usage: check_twins.py [NAME ...]   (default: all). Exit 1 on any mismatch.
With --bless, writes NAME.out from the twin's output (never from mty's).
"""
import os, re, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
args = [a for a in sys.argv[1:] if not a.startswith('--')]
bless = '--bless' in sys.argv
names = args or sorted(f[:-4] for f in os.listdir(here) if f.endswith('.mty'))
tmp = tempfile.mkdtemp()
bad = 0


def marker_line(path):
    with open(path, encoding='utf-8') as f:
        for i, line in enumerate(f, 1):
            if re.search(r'//\s*<-', line) and not line.lstrip().startswith('//'):
                return i
    return None


for name in names:
    mty = os.path.join(here, name + '.mty')
    rs = os.path.join(here, 'rust', name + '.rs')
    text = open(mty, encoding='utf-8').read()
    lines = text.split('\n')
    m = re.match(r'// expect-error: (\d+)\s*$', lines[0])
    problems = []
    if m:
        want_line = int(m.group(1))
        ml = marker_line(mty)
        if ml is not None and ml != want_line:
            problems.append(f'expect-error {want_line} but the // <- marker is on line {ml}')
        r = re.match(r'// rustc: (E\d{4}|none|error)\b', lines[1] if len(lines) > 1 else '')
        if not r:
            problems.append('second line is not `// rustc: EXXXX ...` or `// rustc: none`')
        elif r.group(1) == 'none':
            if os.path.exists(rs):
                problems.append('has a twin but says rustc: none')
        else:
            if not os.path.exists(rs):
                problems.append('no twin rust/' + name + '.rs')
            else:
                p = subprocess.run(['rustc', '--edition', '2021', '--error-format=short',
                                    '--crate-type', 'bin', '-o', os.path.join(tmp, 'x'), rs],
                                   capture_output=True, text=True)
                errs = [l for l in p.stderr.splitlines() if ': error' in l]
                if p.returncode == 0:
                    problems.append('rustc accepts the twin')
                elif not errs:
                    problems.append('rustc failed without an error line: ' + p.stderr[:300])
                else:
                    e = re.match(r'.*?:(\d+):\d+: error(?:\[(E\d{4})\])?: (.*)', errs[0])
                    code = e.group(2) or 'error'
                    if code != r.group(1):
                        problems.append(f'rustc says {code}: {e.group(3)}; header says {r.group(1)}')
                    rl = marker_line(rs)
                    if rl is not None and int(e.group(1)) != rl:
                        problems.append(f'rustc error on twin line {e.group(1)}, marker on {rl}: {errs[0]}')
                    elif rl is None:
                        problems.append('twin has no // <- marker')
    else:
        if '// rust: none' in text:
            pass
        elif not os.path.exists(rs):
            problems.append('no twin rust/' + name + '.rs')
        else:
            exe = os.path.join(tmp, name)
            p = subprocess.run(['rustc', '-O', '--edition', '2021', '-o', exe, rs],
                               capture_output=True, text=True)
            if p.returncode != 0:
                problems.append('rustc rejects the twin:\n' + p.stderr)
            else:
                out = subprocess.run([exe], capture_output=True, text=True, timeout=10).stdout
                outp = os.path.join(here, name + '.out')
                if bless:
                    open(outp, 'w').write(out)
                elif not os.path.exists(outp) or open(outp).read() != out:
                    problems.append('NAME.out differs from the twin\'s output')
            if p.stderr.strip() and 'warning' in p.stderr:
                pass
    if problems:
        bad += 1
        print(f'{name}: ' + '\n    '.join(problems))
print(f'{len(names) - bad}/{len(names)} consistent with rustc')
sys.exit(1 if bad else 0)
