# SPDX-License-Identifier: GPL-2.0
"""The result table of ./run.sh faults, from what the guest brought back.

usage: python3 -m rbts.faults_table RESULTS-DIR   (a Run calls main() in-process)

Each scenario in RESULTS-DIR/faults/SCENARIO/ has the live checker's
result.json and exit status, and the injector's counts (injected.txt).  A
scenario PASSes when the checker PASSed, the fault was injected, and the
fault left the evidence that it did what it is meant to do: a checker that
PASSes a clock switch it never noticed proved nothing.  Writes faults.md
(the table, as Markdown) and faults.json (the rows, for verdict.py) next to
the scenarios.

The kernel log of each scenario (dmesg.txt) must be clean too, by the
patterns of images/kernel-complaints.pattern.  A scenario that fails only
by an open kernel finding of images/findings.json (its complaint
lines, or its checker signature) is KNOWN, with the finding named: it
counts as a failure of the run, and the test suite reports it as a TODO.

exit: 0 every scenario PASS (or SKIP), 1 one FAILed or is KNOWN, 2 nothing to read
"""
import json
import os
import re
import sys

from rbts import faults as faultsmod, known_findings, results


# The counters are read with the writers stopped; a call that was between
# the module's count and the ring buffer when they stopped could still
# differ: a few per CPU and context.
INFLIGHT = 16


def read_counts(path):
    counts = {}
    try:
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2 and parts[1].lstrip('-').isdigit():
                    counts[parts[0]] = int(parts[1])
    except OSError:
        pass
    return counts


def evidence(name, res, inj):
    """(skip, ok, text): what the fault must have left behind, from its
    file's header (images/rbts/faults.py); mixed: more than one kind of
    fault was injected."""
    if name == 'mixed':
        kinds = [k[len('injected_'):] for k, v in inj.items()
                 if k.startswith('injected_') and v > 0]
        return False, len(kinds) > 1, f'{len(kinds)} kinds: {", ".join(sorted(kinds))}'
    fault = faultsmod.get(name)
    if fault is None:
        return False, False, f'no fault {name} in images/guest/faults/'
    return faultsmod.judge(fault, res, inj, INFLIGHT)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print(next(l for l in __doc__.splitlines() if l.startswith('usage:')), file=sys.stderr)
        return 2
    top = results.path(argv[0], 'faults')
    if not os.path.isdir(top):
        print(f'faults-table: {top}: no fault results', file=sys.stderr)
        return 2
    rows, bad, known_ids = [], 0, {}
    for name in sorted(os.listdir(top)):
        d = os.path.join(top, name)
        if not os.path.isdir(d):
            continue
        inj = read_counts(os.path.join(d, 'injected.txt'))
        try:
            with open(results.path(d, 'job-exit')) as f:
                rc = int(f.read().strip() or 2)
        except (OSError, ValueError):
            rc = 2
        try:
            with open(results.path(d, 'result.json')) as f:
                res = json.load(f)
        except (OSError, ValueError):
            res = {}
        nested = sum(c.get('nested', 0) for cpu in res.get('cpus', [])
                     for c in cpu.get('contexts', []))
        n = inj.get('injected', 0)
        skip, ok, why = evidence(name, res, inj)
        if skip:
            verdict = 'SKIP'
        else:
            log = results.read_lines(results.path(d, 'dmesg.txt'))
            bad_log = known_findings.complaints(log)
            log_ids, unexplained = known_findings.log_findings(bad_log, name, log=log)
            chk_ids = known_findings.checker_findings(res, log=log) if rc == 1 else []
            # The kernel's audit and the checker may both see the same finding.
            if bad_log and not unexplained and (rc == 0 or chk_ids) and n and ok:
                who = 'kernel and checker' if chk_ids else 'kernel'
                verdict, why = 'KNOWN', f'{who}: {", ".join(log_ids)} (open); ' + why
                known_ids[name] = log_ids
            elif bad_log:
                verdict, why = 'FAIL', f'kernel: {bad_log[0].strip()}'
            elif rc == 1 and n and ok and chk_ids:
                verdict, why = 'KNOWN', f'checker: {", ".join(chk_ids)} (open); ' + why
                known_ids[name] = chk_ids
            elif rc != 0:
                verdict = 'FAIL'
                why = f'checker exit {rc}' + (f'; {why}' if why else '')
            elif n == 0:
                verdict, why = 'FAIL', 'never injected'
            elif not ok:
                verdict, why = 'FAIL', 'no evidence the fault acted: ' + why
            else:
                verdict = 'PASS'
        bad += verdict in ('FAIL', 'KNOWN')
        rows.append((name, n, res.get('events', 0), nested,
                     res.get('lost_events', 0), why, verdict))
    if not rows:
        print(f'faults-table: {top}: no scenario ran', file=sys.stderr)
        return 2
    head = ('scenario', 'injected', 'events verified', 'nested', 'lost', 'evidence', 'verdict')
    lines = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    lines += ['| ' + ' | '.join(str(c) for c in r) + ' |' for r in rows]
    with open(os.path.join(top, 'faults.md'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    keys = ('scenario', 'injected', 'events', 'nested', 'lost', 'evidence', 'verdict')
    with open(os.path.join(top, 'faults.json'), 'w') as f:
        json.dump({'scenarios': [dict(zip(keys, r), known=known_ids.get(r[0], []))
                                 for r in rows]}, f, indent=1)
    w = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    for r in [head] + rows:
        print('  ' + '  '.join(str(c).ljust(w[i]) for i, c in enumerate(r)).rstrip())
    known = sum(r[-1] == 'KNOWN' for r in rows)
    print(f'faults: {len(rows) - bad} of {len(rows)} scenarios PASS or SKIP, '
          f'{bad - known} FAIL, {known} KNOWN (an open kernel finding)')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
