#!/usr/bin/env python3
"""Regenerates vllm/tag_choices_table.go: for every release tag gen.py reads
(v0.4.0..v0.24.0, patch and .post tags included) the values argparse's
`choices` lets each `vllm serve` option take, read with Python's ast from the
same add_argument calls gen.py reads, without importing vLLM.

Where the choices come from, per add_argument call:
  - `choices=<expr>`: a list/tuple of literals (a `*NAME` inside is expanded),
    `get_args(ALIAS)` / `list(get_args(ALIAS))` of a Literal alias,
    `[x.value for x in ENUM]` / `[x.name for x in ENUM]` over an Enum class
    whose members are literals, a NAME bound at module level to one of those
    (followed through `from ... import` into the tag's other files);
  - `**k["field"]` with k = get_kwargs(Cls) (and the FrontendArgs loop): the
    field's annotation, as the tag's get_kwargs turns it into choices: a
    Literal member gives choices (sorted, + "None" when the annotation is
    Optional) unless the tag's get_kwargs uses metavar for Literal | str;
    bool or a dataclass member first wins; list[Literal] gives choices only
    where get_kwargs has the "sequence of literals" step.
Anything else that is computed (a registry's keys, a kwargs dict whose
"choices" the function edits, `auto()` enum values, an alias that cannot be
resolved) is recorded as dynamic ("?"), never guessed. An option without
choices is "*" (argparse takes any value of its type; vLLM may still refuse
it after parsing, e.g. --attention-backend, which is typed str and turned
into AttentionBackendEnum later: those post-parse checks are not read).

Run from the module root: python3 tools/flagspans/choices.py && gofmt -w vllm/tag_choices_table.go"""
import ast
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

DYN = '?'
# BUILTIN_TYPES: annotation names get_kwargs types without choices.
BUILTIN_TYPES = {'bool', 'str', 'int', 'float', 'dict', 'Any', 'Path', 'type', 'Callable', 'object', 'bytes'}
FREE = '*'


class Tag:
    """Module-level symbol lookup in one tag's source, following imports."""

    def __init__(self, tag):
        self.tag = tag
        self.trees = {}

    def tree(self, path):
        if path not in self.trees:
            s = gen.show(self.tag, path)
            try:
                self.trees[path] = ast.parse(s) if s else None
            except SyntaxError:
                self.trees[path] = None
        return self.trees[path]

    def module_path(self, mod, cur, level):
        if level:
            base = cur.split('/')[:-1]
            for _ in range(level - 1):
                base = base[:-1]
            parts = base + (mod.split('.') if mod else [])
        else:
            parts = mod.split('.')
        p = '/'.join(parts)
        for c in (p + '.py', p + '/__init__.py'):
            if self.tree(c) is not None:
                return c
        return None

    def sym(self, path, name, depth=0):
        """(node, path) bound to name at module level of path: a ClassDef or
        the value of an assignment; None when not found."""
        t = self.tree(path)
        if t is None or depth > 6:
            return None
        found = None
        for n in t.body:
            if isinstance(n, ast.ClassDef) and n.name == name:
                found = (n, path)
            elif isinstance(n, ast.Assign) and any(isinstance(x, ast.Name) and x.id == name for x in n.targets):
                found = (n.value, path)
            elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.target.id == name and n.value is not None:
                found = (n.value, path)
            elif isinstance(n, ast.ImportFrom):
                for a in n.names:
                    if (a.asname or a.name) == name:
                        mp = self.module_path(n.module or '', path, n.level)
                        if mp:
                            r = self.sym(mp, a.name, depth + 1)
                            if r:
                                found = r
        return found


def const_str(v):
    if v is None:
        return 'None'
    if isinstance(v, bool):
        return str(v)
    return str(v)


def literal_values(tg, node, path, depth=0):
    """Values of a Literal[...] subscript, or None when not all literals."""
    sl = node.slice
    elts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
    out = []
    for e in elts:
        if isinstance(e, ast.Constant):
            out.append(e.value)
            continue
        sub = resolve_alias(tg, e, path, depth + 1)
        if sub is None or sub[0] != 'lit':
            return None
        out += sub[1]
    return out


def resolve_alias(tg, node, path, depth=0):
    """('lit', values) for a Literal type (through aliases), ('other', None)."""
    if depth > 8:
        return None
    if isinstance(node, ast.Subscript) and ast.unparse(node.value).split('.')[-1] == 'Literal':
        v = literal_values(tg, node, path, depth)
        return ('lit', v) if v is not None else None
    if isinstance(node, (ast.Name, ast.Attribute)):
        r = tg.sym(path, ast.unparse(node).split('.')[-1])
        if r and not isinstance(r[0], ast.ClassDef):
            return resolve_alias(tg, r[0], r[1], depth + 1)
    return ('other', None)


def union_members(tg, ann, path, depth=0):
    """The union members of an annotation, aliases expanded: list of
    (kind, payload) with kind 'lit' (values), 'name' (type name), 'list'
    (element annotation, path), 'none'."""
    if depth > 8:
        return [('name', '?')]
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            ann = ast.parse(ann.value, mode='eval').body
        except SyntaxError:
            return [('name', ann.value)]
    if isinstance(ann, ast.Constant) and ann.value is None:
        return [('none', None)]
    if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):
        return union_members(tg, ann.left, path, depth + 1) + union_members(tg, ann.right, path, depth + 1)
    if isinstance(ann, ast.Subscript):
        base = ast.unparse(ann.value).split('.')[-1]
        sl = ann.slice
        elts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        if base == 'Optional':
            return union_members(tg, elts[0], path, depth + 1) + [('none', None)]
        if base == 'Union':
            return [m for e in elts for m in union_members(tg, e, path, depth + 1)]
        if base in ('Annotated', 'SkipValidation'):
            return union_members(tg, elts[0], path, depth + 1)
        if base == 'Literal':
            v = literal_values(tg, ann, path, depth)
            return [('lit', v)]  # v None: a Literal not read statically
        if base in ('list', 'List', 'tuple', 'Tuple', 'Sequence'):
            return [('list', (elts[0], path))]
        return [('name', base)]
    name = ast.unparse(ann).split('.')[-1]
    if name in BUILTIN_TYPES:
        return [('name', name)]
    r = tg.sym(path, name)
    if r and not isinstance(r[0], ast.ClassDef):  # a type alias
        return union_members(tg, r[0], r[1], depth + 1)
    if r and isinstance(r[0], ast.ClassDef):
        decs = ' '.join(ast.unparse(d) for d in r[0].decorator_list)
        if 'dataclass' in decs or 'config' in decs:
            return [('dataclass', name)]
        return [('name', name)]
    if name in BUILTIN_TYPES:
        return [('name', name)]
    return [('unresolved', name)]  # e.g. bound only under TYPE_CHECKING


def field_choices(tg, ann, path, rules):
    """Choices get_kwargs builds from a field annotation: a sorted list of
    strings, FREE or DYN."""
    ms = union_members(tg, ann, path)
    kinds = [k for k, _ in ms]
    names = {p for k, p in ms if k == 'name'}
    if 'dataclass' in kinds and rules['dataclass_first']:
        return FREE
    if 'bool' in names:
        return FREE
    lits = [p for k, p in ms if k == 'lit']
    if lits:
        if any(v is None for v in lits):
            return DYN
        if rules['metavar_str'] and 'str' in names:
            return FREE
        vals = lits[0]  # get_type(type_hints, Literal): the first Literal
        out = sorted(vals, key=lambda x: (str(type(x)), x))
        out = [const_str(v) for v in out]
        if 'none' in kinds:
            out.append('None')
        return out
    lists = [p for k, p in ms if k == 'list']
    if 'unresolved' in kinds:
        if rules['metavar_str'] and 'str' in names:
            return FREE  # Literal | str: metavar, whatever the alias is
        return DYN  # an alias read only at runtime may be a Literal
    if lists and rules['seq_literal']:
        sub = union_members(tg, lists[0][0], lists[0][1])
        sl = [p for k, p in sub if k == 'lit']
        if sl:
            if sl[0] is None:
                return DYN
            out = [const_str(v) for v in sorted(sl[0], key=lambda x: (str(type(x)), x))]
            if 'none' in kinds:
                out.append('None')
            return out
    return FREE


def enum_values(tg, cls, attr):
    out = []
    for st in cls.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            n = st.targets[0].id
            if n.startswith('_'):
                continue
            if attr == 'name':
                out.append(n)
            elif isinstance(st.value, ast.Constant):
                out.append(const_str(st.value.value))
            else:
                return None
    return out or None


def expr_choices(tg, e, path, depth=0):
    """Static value of a choices= expression: list of strings or DYN."""
    if depth > 8:
        return DYN
    if isinstance(e, (ast.List, ast.Tuple, ast.Set)):
        out = []
        for x in e.elts:
            if isinstance(x, ast.Constant):
                out.append(const_str(x.value))
            elif isinstance(x, ast.Starred):
                sub = expr_choices(tg, x.value, path, depth + 1)
                if sub == DYN:
                    return DYN
                out += sub
            else:
                return DYN
        return out
    if isinstance(e, ast.Call):
        fn = ast.unparse(e.func).split('.')[-1]
        if fn in ('list', 'sorted', 'tuple') and len(e.args) == 1:
            sub = expr_choices(tg, e.args[0], path, depth + 1)
            return sorted(sub) if (fn == 'sorted' and sub != DYN) else sub
        if fn == 'get_args' and len(e.args) == 1:
            r = resolve_alias(tg, e.args[0], path)
            if r and r[0] == 'lit':
                return [const_str(v) for v in r[1]]
            return DYN
        return DYN
    if isinstance(e, ast.ListComp) and len(e.generators) == 1:
        g = e.generators[0]
        if isinstance(e.elt, ast.Attribute) and isinstance(e.elt.value, ast.Name) and isinstance(g.target, ast.Name) \
                and e.elt.value.id == g.target.id and not g.ifs and e.elt.attr in ('value', 'name'):
            r = tg.sym(path, ast.unparse(g.iter).split('.')[-1])
            if r and isinstance(r[0], ast.ClassDef):
                v = enum_values(tg, r[0], e.elt.attr)
                return v if v else DYN
        return DYN
    if isinstance(e, (ast.Name, ast.Attribute)):
        r = tg.sym(path, ast.unparse(e).split('.')[-1])
        if r and not isinstance(r[0], ast.ClassDef):
            return expr_choices(tg, r[0], r[1], depth + 1)
        return DYN
    return DYN


def edited_choices(func):
    """(var, field) pairs whose kwargs dict's "choices" the function edits."""
    out = set()
    for n in ast.walk(func):
        if isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant) and n.slice.value == 'choices':
            v = n.value
            if isinstance(v, ast.Subscript) and isinstance(v.slice, ast.Constant):
                out.add((ast.unparse(v.value), v.slice.value))
    return out


def class_path_index(tg):
    idx = {}
    for f in gen.config_files(tg.tag):
        t = tg.tree(f)
        if t is None:
            continue
        for n in t.body:
            if isinstance(n, ast.ClassDef):
                idx.setdefault(n.name, (n, f))
    return idx


def fields_with_path(idx, name, seen=None):
    seen = seen or set()
    if name not in idx or name in seen:
        return {}
    seen.add(name)
    c, p = idx[name]
    out = {}
    for b in c.bases:
        out.update(fields_with_path(idx, ast.unparse(b).split('.')[-1], seen))
    for st in c.body:
        if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
            if 'ClassVar' in ast.unparse(st.annotation):
                continue
            out[st.target.id] = (st.annotation, p)
    return out


def choices_at(tag):
    """option spelling -> sorted choices list, FREE or DYN."""
    tg = Tag(tag)
    idx = class_path_index(tg)
    au = gen.show(tag, 'vllm/engine/arg_utils.py') or ''
    rules = {
        'metavar_str': 'kwarg = "metavar" if contains_type(type_hints, str)' in au,
        'seq_literal': 'get_origin(kwargs[name].get("type")) is Literal' in au,
        'dataclass_first': 'dataclass_cls is not None' in au,
    }
    out = {}
    for path in gen.FILES:
        tree = tg.tree(path)
        if tree is None:
            continue
        for fn in [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]:
            kc = gen.kwargs_classes(fn)
            edited = edited_choices(fn)
            loops = gen.loop_literals(fn)
            for c in ast.walk(fn):
                if not (isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == 'add_argument'):
                    continue
                if path in gen.RECEIVER and ast.unparse(c.func.value) != gen.RECEIVER[path]:
                    continue
                names = [a.value for a in c.args if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.startswith('--')]
                names += [v for v in loops.get(id(c), []) if v.startswith('--')]
                ch = FREE
                if loops.get(id(c)):
                    ch = DYN  # one call for many options: per-option kwargs not followed
                for sub in gen.unpacked(c):
                    var = ast.unparse(sub.value)
                    fld = sub.slice
                    if var in kc and isinstance(fld, ast.Constant):
                        if (var, fld.value) in edited:
                            ch = DYN
                            continue
                        fp = fields_with_path(idx, kc[var]).get(fld.value)
                        ch = field_choices(tg, fp[0], fp[1], rules) if fp else DYN
                    else:
                        ch = DYN
                for kw in c.keywords:
                    if kw.arg == 'choices':
                        ch = expr_choices(tg, kw.value, path)
                for a in c.args:  # the FrontendArgs loop
                    if isinstance(a, ast.JoinedStr) and "replace('_', '-')" in ast.unparse(a):
                        for fname, (ann, p) in fields_with_path(idx, 'FrontendArgs').items():
                            key = '--' + fname.replace('_', '-')
                            if any(v == 'frontend_kwargs' and f == fname for v, f in edited):
                                out[key] = DYN
                            else:
                                out[key] = field_choices(tg, ann, p, rules)
                for n in names:
                    out[n] = ch
    return out


def env_choices_at(tag):
    """variable -> choices for the variables vllm/envs.py registers with
    env_with_choices / env_list_with_choices / env_set_with_choices (the
    choices argument read like choices=; "~" before the values when the
    call passes case_sensitive=False); every other variable is free ("*":
    envs.py parses it without a list, its users may still check it)."""
    tg = Tag(tag)
    path = 'vllm/envs.py'
    t = tg.tree(path)
    if t is None:
        return {}
    out = {}
    for n in ast.walk(t):
        tgt = None
        if isinstance(n, ast.Assign) and len(n.targets) == 1:
            tgt = n.targets[0]
        elif isinstance(n, ast.AnnAssign):
            tgt = n.target
        if not (isinstance(tgt, ast.Name) and tgt.id == 'environment_variables' and isinstance(n.value, ast.Dict)):
            continue
        for k, v in zip(n.value.keys, n.value.values):
            if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
                continue
            ch = FREE
            if isinstance(v, ast.Call) and ast.unparse(v.func).split('.')[-1].endswith('with_choices'):
                arg = v.args[2] if len(v.args) > 2 else next((kw.value for kw in v.keywords if kw.arg == 'choices'), None)
                ch = expr_choices(tg, arg, path) if arg is not None else DYN
                cs = v.args[3] if len(v.args) > 3 else next((kw.value for kw in v.keywords if kw.arg == 'case_sensitive'), None)
                if ch != DYN and isinstance(cs, ast.Constant) and cs.value is False:
                    ch = ['~' + ch[0]] + ch[1:] if ch else ch
            out[k.value] = ch
    return out


def enc(ch):
    if isinstance(ch, str):
        return ch
    seen = []
    for v in ch:  # Literal[A, B] of aliases dedupes, as typing does
        if v not in seen:
            seen.append(v)
    return '|'.join(seen)


def main():
    ts = gen.tags()
    per, pere = {}, {}
    for t in ts:
        for f, ch in choices_at(t).items():
            per.setdefault(f, {})[t] = enc(ch)
        for e, ch in env_choices_at(t).items():
            pere.setdefault(e, {})[t] = enc(ch)
    out = ['// Code generated by tools/flagspans/choices.py from vLLM\'s release tags (Python ast over the',
           '// add_argument calls tools/flagspans/gen.py reads, at each tag of the kzwrime/vllm snapshot of',
           '// vllm-project/vllm); DO NOT EDIT.',
           '',
           'package vllm',
           '',
           '// tagChoices: for every option spelling some tag reads choices for, runs of',
           '// consecutive read tags (tagReads order, first and last release) with the',
           '// same choices: values joined by "|", "*" where argparse takes any value',
           '// (no choices), "?" where the choices are computed (a registry, an edited',
           '// kwargs dict) and were not read. Tags where the option is absent are in no run.',
           'var tagChoices = map[string][]choiceRun{']
    nfl = emit(out, per, ts)
    out.append('')
    out.append('// tagEnvChoices: tagChoices for the variables vllm/envs.py registers with')
    out.append('// env_with_choices (and its list/set forms); "~" before the values: matched')
    out.append('// case-insensitively (case_sensitive=False). Other variables are free.')
    out.append('var tagEnvChoices = map[string][]choiceRun{')
    nev = emit(out, pere, ts)
    open('vllm/tag_choices_table.go', 'w').write('\n'.join(out) + '\n')
    print(len(ts), 'tags,', nfl, 'options and', nev, 'variables with choices at some tag')


def emit(out, per, ts):
    n = 0
    for f in sorted(per):
        runs = []
        for t in ts:
            v = per[f].get(t)
            if v is None:
                continue
            if runs and runs[-1][2] == v and ts.index(runs[-1][1]) == ts.index(t) - 1:
                runs[-1][1] = t
            else:
                runs.append([t, t, v])
        if all(r[2] == FREE for r in runs):
            continue  # never has choices: TagFlag / tagFlags covers it
        n += 1
        out.append(f'\t"{f}": {{')
        for a, b, v in runs:
            out.append(f'\t\t{{"{a[1:]}", "{b[1:]}", "{v}"}},')
        out.append('\t},')
    out.append('}')
    return n


if __name__ == '__main__':
    main()
