#!/usr/bin/env python3
"""Time the Jinja work vLLM 0.11.0's API server does per chat request, per chat template.

What is timed (issue #28; vllm/facts_chat_template.go has the sources):

  kwargs   resolve_chat_template_kwargs as at the v0.11.0 tag: a fresh
           jinja2.sandbox.ImmutableSandboxedEnvironment(trim_blocks=True,
           lstrip_blocks=True, extensions=[AssistantTracker,
           jinja2.ext.loopcontrols]), env.parse(chat_template) and
           jinja2.meta.find_undeclared_variables(ast), on every request (PR
           #26227 put it behind an lru_cache after 0.11.0 was cut). Timed
           whole and split into its three calls (env, parse, vars).
  render   the render of a one-message conversation with a template compiled
           once (transformers' _compile_jinja_template is an lru_cache), with
           the globals and filters transformers installs.
  detect   content-format detection (_detect_content_format): lru_cached since
           PR #20065 (0.10.0), so 0.11.0 runs it on the first request only.
           Reported (parse plus a walk of the AST), not charged per request.

The per-request cost of 0.11.0 is kwargs + render. Each measurement is the
median of --reps repetitions (after --warmup), with the garbage collector on
as in a server; the templates are timed interleaved, round after round, so a
neighbour's load on a shared machine falls on all of them alike.

Usage: python3 tools/chattemplate/bench.py [--reps N] [--json] FILE.jinja...
Needs only jinja2 (3.1.6 on the build host) and CPython (3.11).
"""

import argparse
import json
import os
import platform
import statistics
import sys
import time
from datetime import datetime

import jinja2
import jinja2.ext
import jinja2.meta
import jinja2.nodes
import jinja2.sandbox


class AssistantTracker(jinja2.ext.Extension):
    """The {% generation %} tag, as vLLM 0.11.0 copies it from transformers
    v4.56.2 (chat_template_utils.py) for the kwargs parse: only its parse()
    matters here, since the template is parsed, not rendered, with it."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        call = self.call_method("_generation_support")
        call_block = jinja2.nodes.CallBlock(call, [], [], body)
        return call_block.set_lineno(lineno)

    def _generation_support(self, caller):
        return caller()


def new_env():
    return jinja2.sandbox.ImmutableSandboxedEnvironment(
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=[AssistantTracker, jinja2.ext.loopcontrols],
    )


def kwargs_resolve(template):
    """resolve_chat_template_kwargs' Jinja calls (v0.11.0): per request."""
    env = new_env()
    ast = env.parse(template)
    return jinja2.meta.find_undeclared_variables(ast)


def compile_for_render(template):
    """transformers' _compile_jinja_template: once per template (cached)."""

    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent,
                          separators=separators, sort_keys=sort_keys)

    def strftime_now(fmt):
        return datetime.now().strftime(fmt)

    env = new_env()
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env.from_string(template)


# A one-message conversation with a ShareGPT-sized prompt (the bursts'
# prompts average ~215 tokens, ~1,000 characters).
MESSAGES = [{"role": "user", "content": ("Explain how a transformer decoder generates text. " * 20).strip()}]


def render(compiled):
    return compiled.render(messages=MESSAGES, tools=None, documents=None,
                           add_generation_prompt=True, bos_token="<s>", eos_token="</s>")


def detect_content_format(template):
    """Roughly _detect_content_format's work (parse + a walk of the AST for
    loops over message content); cached in 0.11.0, reported for scale."""
    ast = new_env().parse(template)
    return sum(1 for _ in ast.find_all(jinja2.nodes.For))


def timeit(fn, *args):
    t0 = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t0


def machine():
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": model, "nproc": os.cpu_count(), "python": platform.python_version(),
            "jinja2": jinja2.__version__, "load1": os.getloadavg()[0]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--synthetic", action="store_true",
                    help="also time the kwargs parse of synthetic templates of 1-40 identical blocks "
                         "(how the cost grows with a template's size; no model's template)")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    if a.reps < 1:
        ap.error("--reps must be at least 1")

    tmpls = {}
    for path in a.files:
        try:
            with open(path, encoding="utf-8") as f:
                tmpls[os.path.basename(path)] = f.read()
        except OSError as e:
            print(f"bench: {e}", file=sys.stderr)
            return 2
    compiled = {}
    for name, t in tmpls.items():
        try:
            kwargs_resolve(t)
            compiled[name] = compile_for_render(t)
            render(compiled[name])
        except jinja2.TemplateError as e:
            print(f"bench: {name}: {e}", file=sys.stderr)
            return 2

    steps = ("kwargs", "env", "parse", "vars", "render", "detect")
    samples = {n: {s: [] for s in steps} for n in tmpls}
    for rep in range(a.warmup + a.reps):
        for name, t in tmpls.items():
            k = timeit(kwargs_resolve, t)
            t0 = time.perf_counter()
            env = new_env()
            t1 = time.perf_counter()
            ast = env.parse(t)
            t2 = time.perf_counter()
            jinja2.meta.find_undeclared_variables(ast)
            t3 = time.perf_counter()
            r = timeit(render, compiled[name])
            d = timeit(detect_content_format, t)
            if rep >= a.warmup:
                s = samples[name]
                s["kwargs"].append(k)
                s["env"].append(t1 - t0)
                s["parse"].append(t2 - t1)
                s["vars"].append(t3 - t2)
                s["render"].append(r)
                s["detect"].append(d)

    out = {"machine": machine(), "reps": a.reps, "templates": {}}
    for name, t in tmpls.items():
        s = samples[name]
        med = {st: statistics.median(v) * 1e3 for st, v in s.items()}
        q = statistics.quantiles(s["kwargs"], n=10) if a.reps >= 10 else [0] * 9
        out["templates"][name] = {
            "chars": len(t),
            "nodes": sum(1 for _ in new_env().parse(t).find_all(jinja2.nodes.Node)),
            "median_ms": {st: round(v, 3) for st, v in med.items()},
            "kwargs_min_ms": round(min(s["kwargs"]) * 1e3, 3),
            "kwargs_p10_p90_ms": [round(q[0] * 1e3, 3), round(q[-1] * 1e3, 3)],
            "per_request_ms": round(med["kwargs"] + med["render"], 3),
        }
    if a.json:
        json.dump(out, sys.stdout, indent=1)
        print()
        return 0
    m = out["machine"]
    print(f"# {m['cpu']}, nproc {m['nproc']}, CPython {m['python']}, jinja2 {m['jinja2']}, "
          f"load1 {m['load1']:.2f}; median of {a.reps} reps (ms)")
    print(f"{'template':40} {'chars':>6} {'nodes':>6} {'kwargs':>7} {'(env':>6} {'parse':>6} "
          f"{'vars)':>6} {'render':>7} {'per-req':>8} {'detect*':>8} {'kw-min':>7} {'kw-p10':>7} {'kw-p90':>7}")
    for name, r in out["templates"].items():
        md = r["median_ms"]
        print(f"{name:40} {r['chars']:6d} {r['nodes']:6d} {md['kwargs']:7.2f} {md['env']:6.3f} "
              f"{md['parse']:6.2f} {md['vars']:6.2f} {md['render']:7.3f} {r['per_request_ms']:8.2f} "
              f"{md['detect']:8.2f} {r['kwargs_min_ms']:7.2f} {r['kwargs_p10_p90_ms'][0]:7.2f} "
              f"{r['kwargs_p10_p90_ms'][1]:7.2f}")
    print("# per-req = kwargs + render (0.11.0's per-request work); *detect is cached in 0.11.0 (first request only);")
    print("# kw-min/p10/p90: the kwargs step's fastest, 10th and 90th percentile (a shared machine's load shows there)")
    if a.synthetic:
        print("# synthetic: blocks, chars, kwargs median ms")
        for n, chars, ms in synthetic(a.reps, a.warmup):
            print(f"{n:4d} {chars:6d} {ms:7.2f}")
    return 0


# One block of a chat-template-like body: a test, a concatenation, a filter-free output.
SYNTH_BLOCK = ("{%- if message.role == 'user' %}\n"
               "    {{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' }}\n"
               "{%- endif %}\n")


def synthetic(reps, warmup):
    rows = []
    for n in (1, 5, 10, 20, 40):
        t = "{%- for message in messages %}\n" + SYNTH_BLOCK * n + "{%- endfor %}"
        xs = [timeit(kwargs_resolve, t) for _ in range(warmup + reps)][warmup:]
        rows.append((n, len(t), statistics.median(xs) * 1e3))
    return rows


if __name__ == "__main__":
    sys.exit(main())
