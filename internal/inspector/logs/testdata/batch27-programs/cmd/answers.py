import json, re, sys, os
# answers.py: counts, per excerpt, the failure lines of batch27's programs:
# crsinks logs one "Reconciler error" record per failed attempt (controller-
# runtime's reconcileHandler), wqsecrets one "error syncing 'KEY': ERR,
# requeuing" HandleError line; the key's error is known from the program
# (scenario.go) by which fault the line names.
NAME = re.compile(r'\b(cm|sec)-(web|ledger|api|cache|rollout|audit|flags|report)\b')
def canon(line, name, own, ref):
    if 'not found' in line:
        tok = 'api-token' if name.endswith('-api') else 'report-token'
        return f'reading referenced {ref} apps/{tok}: {ref} "{tok}" not found'
    if 'has been modified' in line:
        return f'writing sync stamp: Operation cannot be fulfilled on {own} "{name}": the object has been modified'
    if 'forbidden' in line:
        return f'writing sync stamp: {own} "{name}" is forbidden: ValidatingAdmissionPolicy \'change-freeze\''
    raise SystemExit('unknown error: ' + line)
def answer(path, lo, hi):
    lines = open(path).read().split('\n')[lo-1:hi]
    keys = {}
    for l in lines:
        if 'Reconciler error' not in l and "error syncing '" not in l:
            continue
        m = NAME.search(l)
        name = m.group(0)
        own, ref = ('configmaps', 'secrets') if name.startswith('cm-') else ('secrets', 'configmaps')
        ns = 'frozen' if name.split('-')[1] in ('ledger', 'audit') else 'apps'
        k = keys.setdefault(ns + '/' + name, {'key': ns + '/' + name, 'count': 0, 'terminal': False})
        k['count'] += 1
        k['err'] = canon(l, name, own, ref)[:80]
    return sorted(keys.values(), key=lambda k: k['key'])
if __name__ == '__main__':
    spec = json.load(open(sys.argv[1]))  # {file: [src, lo, hi]}
    out = {f: answer(os.path.join(sys.argv[2], s), lo, hi) for f, (s, lo, hi) in spec.items()}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
