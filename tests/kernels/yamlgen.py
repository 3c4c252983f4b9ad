"""Shared by the test kernels' expected.py models: the hex listings of a generated workload
YAML and writing it (or, with --check, failing when the committed file is not what the model
gives)."""
import sys


def listing(vals, per=8, fmt='0x%x'):
    """a YAML flow list of vals, per values a line, at the indent of a buffer's init/expect"""
    rows = ['      ' + ', '.join(fmt % v for v in vals[i:i + per]) + ',' for i in range(0, len(vals), per)]
    return '[\n' + '\n'.join(rows) + '\n    ]'


def write_or_check(path, text):
    """write text to path; with --check on the command line, exit with a message if the
    committed file differs instead"""
    if '--check' in sys.argv:
        if open(path).read() != text:
            sys.exit('%s: not what expected.py gives' % path)
        return
    open(path, 'w').write(text)


def write_or_check_models(here, models):
    """each model gives (name, text) of here/name.yaml: write them all or, with --check,
    print every file that differs (or is missing) and exit 1 if any did"""
    import os
    bad = 0
    for gen in models:
        name, text = gen()
        path = os.path.join(here, name + '.yaml')
        if '--check' in sys.argv:
            if not os.path.exists(path) or open(path).read() != text:
                print('MISMATCH: %s differs from the model' % path)
                bad = 1
        else:
            open(path, 'w').write(text)
    sys.exit(bad)
