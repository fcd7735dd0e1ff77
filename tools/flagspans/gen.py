#!/usr/bin/env python3
"""Regenerates vllm/tag_flags_table.go: for every final vLLM release tag
v0.4.0..v0.24.0 in the bare mirror R (upstream's tags, patch and .post tags
included, rc/dev skipped) it lists, with Python's ast and without importing
vLLM, the options `vllm serve` (the OpenAI server's parser) accepts and the
environment variables vllm/envs.py registers.

Options: every string literal passed to an add_argument call in
vllm/engine/arg_utils.py (EngineArgs and AsyncEngineArgs.add_cli_args),
vllm/entrypoints/openai/cli_args.py (make_arg_parser, FrontendArgs),
vllm/entrypoints/cli/serve.py (the serve subparser, 0.8 on) and
vllm/scripts.py (serve_parser only: the `vllm` CLI before 0.8); a `for x in [literal
list]` loop feeding add_argument; the FrontendArgs loop
(`add_argument(f"--{key.replace('_', '-')}", **value)` over
get_kwargs(FrontendArgs)), which registers one option per dataclass field.
`--no-x` is listed when argparse builds it: an explicit
BooleanOptionalAction, or `**k["field"]` with k = get_kwargs(Cls) and the
field's annotation containing bool (get_kwargs turns that into
BooleanOptionalAction), except the optional-valued bool | str | None fields
of the releases whose get_kwargs special-cases them.

Known limits (stated in the generated file): options registered outside
those three files, or through dynamic code other than the two loop forms,
are missed; a kwargs dict edited before add_argument (action replaced) is
not followed.

Run from the module root: python3 tools/flagspans/gen.py && gofmt -w vllm/tag_flags_table.go"""
import ast
import re
import subprocess

R = '/work/.mirror/kzwrime+vllm/repo'
FILES = ['vllm/engine/arg_utils.py', 'vllm/entrypoints/openai/cli_args.py', 'vllm/entrypoints/cli/serve.py', 'vllm/scripts.py']
# RECEIVER: for files that also build other subcommands' parsers, the
# add_argument receiver that is the serve parser (vllm/scripts.py, the
# `vllm` CLI of 0.5-0.7: `serve_parser.add_argument("--config", ...)`).
RECEIVER = {'vllm/scripts.py': 'serve_parser'}


def git(*args):
    return subprocess.run(['git', '-C', R, *args], capture_output=True, text=True)


def show(tag, path):
    r = git('show', f'{tag}:{path}')
    return r.stdout if r.returncode == 0 else None


def key(t):
    return tuple(int(x) for x in re.findall(r'\d+', t))


def tags():
    out = []
    for t in git('tag').stdout.split():
        if not re.fullmatch(r'v0\.\d+\.\d+(\.\d+|\.post\d+)?', t):
            continue  # rc, dev and non-release tags
        if (0, 4, 0) <= key(t)[:3] <= (0, 24, 0):
            out.append(t)
    return sorted(out, key=key)


def config_files(tag):
    """Files whose classes get_kwargs may read: the config module(s) and the
    two argument files themselves."""
    fs = ['vllm/config.py', 'vllm/engine/arg_utils.py', 'vllm/entrypoints/openai/cli_args.py']
    ls = git('ls-tree', '-r', '--name-only', tag, 'vllm/config/').stdout.split()
    return fs + [f for f in ls if f.endswith('.py')]


def class_index(tag):
    idx = {}
    for f in config_files(tag):
        s = show(tag, f)
        if not s:
            continue
        try:
            t = ast.parse(s)
        except SyntaxError:
            continue
        for n in t.body:
            if isinstance(n, ast.ClassDef):
                idx.setdefault(n.name, n)
    return idx


def class_fields(idx, name, seen=None):
    """name -> annotation AST of each dataclass field, bases first."""
    seen = seen or set()
    c = idx.get(name)
    if c is None or name in seen:
        return {}
    seen.add(name)
    out = {}
    for b in c.bases:
        bn = ast.unparse(b).split('.')[-1]
        out.update(class_fields(idx, bn, seen))
    for st in c.body:
        if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
            if 'ClassVar' in ast.unparse(st.annotation):
                continue
            if st.value is not None and 'init=False' in ast.unparse(st.value):
                continue
            out[st.target.id] = st.annotation
    return out


# STRIP_ANNOTATED[0]: the tag's get_kwargs unwraps Annotated (get_type_hints
# with `origin is Annotated`); before that an Annotated bool is not a bool.
STRIP_ANNOTATED = [False]


def members(ann):
    """The names of a type annotation's union members."""
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            ann = ast.parse(ann.value, mode='eval').body
        except SyntaxError:
            return {ann.value}
    if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):
        return members(ann.left) | members(ann.right)
    if isinstance(ann, ast.Subscript):
        base = ast.unparse(ann.value).split('.')[-1]
        sl = ann.slice
        elts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        if base == 'Optional':
            return members(elts[0]) | {'None'}
        if base == 'Union':
            out = set()
            for e in elts:
                out |= members(e)
            return out
        if base == 'Annotated' or (base == 'SkipValidation' and STRIP_ANNOTATED[0]):
            return members(elts[0])  # pydantic's SkipValidation[T] is Annotated[T, ...]
        return {base}
    if isinstance(ann, ast.Constant) and ann.value is None:
        return {'None'}
    return {ast.unparse(ann).split('.')[-1]}


def is_bool_field(ann, optional_valued):
    m = members(ann)
    if 'bool' not in m:
        return False
    if optional_valued and m == {'bool', 'str', 'None'}:
        return False  # bare flag -> True, value -> str (nargs="?")
    return True


def kwargs_classes(func):
    """var name -> class name for `var = get_kwargs(Cls)` in a function."""
    out = {}
    for n in ast.walk(func):
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call):
            f = ast.unparse(n.value.func)
            if f.endswith('get_kwargs') and n.value.args and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                out[n.targets[0].id] = ast.unparse(n.value.args[0]).split('.')[-1]
    return out


def loop_literals(func):
    """id(add_argument call) -> flag strings, for `for a, ... in [("--x", ...), ...]:` loops."""
    out = {}
    for n in ast.walk(func):
        if not isinstance(n, ast.For) or not isinstance(n.iter, (ast.List, ast.Tuple)):
            continue
        tgt = n.target.elts[0] if isinstance(n.target, ast.Tuple) else n.target
        if not isinstance(tgt, ast.Name):
            continue
        vals = []
        for e in n.iter.elts:
            e0 = e.elts[0] if isinstance(e, ast.Tuple) else e
            if isinstance(e0, ast.Constant) and isinstance(e0.value, str):
                vals.append(e0.value)
        for c in ast.walk(n):
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == 'add_argument':
                if any(isinstance(a, ast.Name) and a.id == tgt.id for a in c.args):
                    out[id(c)] = vals
    return out


def is_bool_action(call):
    for kw in call.keywords:
        if kw.arg == 'action' and 'BooleanOptionalAction' in ast.unparse(kw.value):
            return True
    return False


def unpacked(call):
    """The `k["field"]` subscripts a call's **kwargs unpack: `**k["f"]` and
    `**{**k["f"], "default": None}` (a literal "action" key overrides)."""
    out = []
    for kw in call.keywords:
        if kw.arg is not None:
            continue
        v = kw.value
        if isinstance(v, ast.Subscript):
            out.append(v)
        elif isinstance(v, ast.Dict):
            keys = [k.value for k in v.keys if isinstance(k, ast.Constant)]
            if 'action' in keys:
                continue
            out += [x for k, x in zip(v.keys, v.values) if k is None and isinstance(x, ast.Subscript)]
    return out


def flags_at(tag):
    idx = class_index(tag)
    au = show(tag, 'vllm/engine/arg_utils.py') or ''
    optional_valued = 'type_hints == {bool, str, type(None)}' in au
    STRIP_ANNOTATED[0] = 'origin is Annotated' in au
    flags = set()
    for path in FILES:
        s = show(tag, path)
        if not s:
            continue
        tree = ast.parse(s)
        funcs = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        for fn in funcs:
            kc = kwargs_classes(fn)
            loops = loop_literals(fn)
            for c in ast.walk(fn):
                if not (isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == 'add_argument'):
                    continue
                if path in RECEIVER and ast.unparse(c.func.value) != RECEIVER[path]:
                    continue
                names = [a.value for a in c.args if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.startswith('-')]
                names += [v for v in loops.get(id(c), []) if v.startswith('-')]
                boolean = is_bool_action(c)
                for a in c.args:  # the FrontendArgs loop: one option per field
                    if isinstance(a, ast.JoinedStr) and "replace('_', '-')" in ast.unparse(a):
                        cls = 'FrontendArgs'
                        for fname, ann in class_fields(idx, cls).items():
                            flags.add('--' + fname.replace('_', '-'))
                            if is_bool_field(ann, optional_valued):
                                flags.add('--no-' + fname.replace('_', '-'))
                for sub in unpacked(c):
                    var = ast.unparse(sub.value)
                    fld = sub.slice
                    if var in kc and isinstance(fld, ast.Constant):
                        ann = class_fields(idx, kc[var]).get(fld.value)
                        if ann is not None and is_bool_field(ann, optional_valued):
                            boolean = True
                for n in names:
                    flags.add(n)
                    if boolean and n.startswith('--'):
                        flags.add('--no-' + n[2:])
    return flags


def envs_at(tag):
    s = show(tag, 'vllm/envs.py')
    if not s:
        return set()
    out = set()
    for n in ast.walk(ast.parse(s)):
        tgt = None
        if isinstance(n, ast.Assign) and len(n.targets) == 1:
            tgt = n.targets[0]
        elif isinstance(n, ast.AnnAssign):
            tgt = n.target
        if isinstance(tgt, ast.Name) and tgt.id == 'environment_variables' and isinstance(n.value, ast.Dict):
            for k in n.value.keys:
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    out.add(k.value)
    return out


def commit(t):
    return git('rev-parse', '--short=12', t + '^{commit}').stdout.strip()


def mask(present, ts):
    return ''.join('X' if t in present else '.' for t in ts)


def main():
    ts = tags()
    fl, ev = {}, {}
    for t in ts:
        for f in flags_at(t):
            fl.setdefault(f, set()).add(t)
        for e in envs_at(t):
            ev.setdefault(e, set()).add(t)
    out = ['// Code generated by tools/flagspans/gen.py from vLLM\'s release tags (Python ast over',
           '// vllm/engine/arg_utils.py, vllm/entrypoints/openai/cli_args.py, vllm/entrypoints/cli/serve.py',
           '// and vllm/envs.py at each tag of the kzwrime/vllm snapshot of vllm-project/vllm); DO NOT EDIT.',
           '',
           'package vllm',
           '',
           '// tagReads are the final release tags read (patch and .post tags included,',
           '// rc/dev skipped), oldest first, each with its tag commit. A mask in',
           '// tagFlags / tagEnvs has one character per tag in this order: X where',
           '// the tag accepts the option (registers the variable), "." where not.',
           'var tagReads = []tagRead{']
    for t in ts:
        out.append(f'\t{{"{t[1:]}", "{commit(t)}"}},')
    out.append('}')
    out.append('')
    out.append('// tagFlags: every option spelling (long, --no- form, short alias) some tag accepts.')
    out.append('var tagFlags = map[string]string{')
    for f in sorted(fl):
        out.append(f'\t"{f}": "{mask(fl[f], ts)}",')
    out.append('}')
    out.append('')
    out.append('// tagEnvs: every variable some tag\'s vllm/envs.py registers.')
    out.append('var tagEnvs = map[string]string{')
    for e in sorted(ev):
        out.append(f'\t"{e}": "{mask(ev[e], ts)}",')
    out.append('}')
    open('vllm/tag_flags_table.go', 'w').write('\n'.join(out) + '\n')
    print(len(ts), 'tags,', len(fl), 'option spellings,', len(ev), 'variables')


if __name__ == '__main__':
    main()
