#!/usr/bin/python3
"""Predicts published rows with NVIDIA's aiconfigurator (agg mode).

Reads vlaunch's published measurements (published/throughput.yaml), keeps the
rows aiconfigurator can express -- vLLM or SGLang, one of the GPUs it has
measured tables for here (H100 SXM, H200, B200, B300), a model it ships a config
for, a closed loop whose concurrency, prompt and output lengths are stated --
and runs aiconfigurator's single-point estimator (`cli_estimate`, the Python
form of `aiconfigurator cli estimate`, agg mode) on each. Writes one CSV line
per (row, figure) with aiconfigurator's prediction; rows it cannot express
get one line saying why. estimate/replay's TestAIConfiguratorComparison
joins that file with vlaunch's own predictions and writes
docs/aiconfigurator-comparison.md.

Run with Debian's python3 and the tree prepare.sh builds (see README.md):

  PYTHONPATH=OUT/aic/src:OUT/shim /usr/bin/python3 tools/aicmp/aicmp.py \
      --aic OUT --published published/throughput.yaml --out tools/aicmp/aiconfigurator-predictions.csv

Only Debian packages are needed: python3-yaml python3-pandas python3-numpy
python3-scipy python3-matplotlib python3-munch python3-prettytable
python3-tqdm python3-jinja2 python3-packaging.
"""

import argparse
import csv
import logging
import math
import os
import sys
import tempfile

import yaml

# vlaunch catalog GPU id -> aiconfigurator system name (those whose tables
# prepare.sh fills in).
SYSTEMS = {"h100-sxm": "h100_sxm", "h200": "h200_sxm", "b200": "b200_sxm", "b300": "b300_sxm"}

# vlaunch catalog model id -> aiconfigurator model (a config it ships under
# src/aiconfigurator/model_configs, so nothing is downloaded).
MODELS = {
    "llama-3.1-8b": "meta-llama/Meta-Llama-3.1-8B",
    "llama-3.1-70b": "meta-llama/Meta-Llama-3.1-70B",
    "llama-3.1-405b": "meta-llama/Meta-Llama-3.1-405B",
    "qwen3-8b": "Qwen/Qwen3-8B",
    "qwen3-32b": "Qwen/Qwen3-32B",
    "qwen3-30b-a3b": "Qwen/Qwen3-30B-A3B",
    "qwen3-235b-a22b": "Qwen/Qwen3-235B-A22B",
    "qwen3-235b-a22b-fp8": "Qwen/Qwen3-235B-A22B-FP8",
    "gpt-oss-120b": "openai/gpt-oss-120b",
    "gpt-oss-20b": "openai/gpt-oss-20b",
    "deepseek-r1": "deepseek-ai/DeepSeek-R1",
    "deepseek-v3": "deepseek-ai/DeepSeek-V3",
}

# Where the row's weights change the checkpoint aiconfigurator should read
# (its quantisation comes from the checkpoint's config): (catalog id, weights).
MODELS_BY_WEIGHTS = {
    ("llama-3.3-70b", "fp8"): "nvidia/Llama-3.1-70B-Instruct-FP8",  # same architecture as 3.3-70B
    ("llama-3.3-70b", "bf16"): "meta-llama/Meta-Llama-3.1-70B",
    ("deepseek-r1", "nvfp4"): "nvidia/DeepSeek-V3.1-NVFP4",  # same architecture; the only NVFP4 DeepSeek config shipped
}

# vlaunch engine name -> aiconfigurator backend and the table release used
# (the newest one aiconfigurator v0.9.0 ships for all three GPUs). NVIDIA NIM
# does not say which engine its profile ran; aiconfigurator's vLLM tables stand
# in (vlaunch excludes those rows from its fit and bands for the same reason).
BACKENDS = {"vllm": ("vllm", "0.19.0"), "sglang": ("sglang", "0.5.10"), "nim": ("vllm", "0.19.0")}

LOADS = ("closed-loop",)

FIELDS = [
    "row", "source", "split", "engine", "engine_version", "gpu", "model", "weights",
    "aic_system", "aic_model", "aic_backend", "aic_version", "tp", "attention_dp", "moe_tp", "moe_ep",
    "batch_per_rank", "isl", "osl", "kvcache_quant", "metric", "aic_predicted", "status",
]


def known(v):
    return v is not None and v != "unknown"


def num(v):
    return float(v) if known(v) else None


def lengths(w):
    """Prompt and output lengths as vlaunch's replay takes them (estimate/replay lengths): the
    published means when given (what the client sent and received), else the nominal."""
    isl, osl = num(w.get("input_tokens_mean")), num(w.get("output_tokens_mean"))
    if isl is None:
        isl = num(w.get("input_tokens"))
    if osl is None:
        osl = num(w.get("output_tokens"))
    if isl is None or osl is None:
        return None, None
    return int(math.floor(isl + 0.5)), int(math.floor(osl + 0.5))  # Go's math.Round, as the replay


def why_not(r):
    """Why aiconfigurator cannot express row r ('' when it can)."""
    e, g, m = r["engine"]["name"], r["hardware"]["gpu"], r["model"].get("catalog")
    if e not in BACKENDS:
        return f"engine {e}: not compared"
    if g not in SYSTEMS:
        return f"GPU {g}: no aiconfigurator tables prepared (only {', '.join(SYSTEMS)})"
    if aic_model(r) is None:
        return f"model {m}: no aiconfigurator model config mapped"
    kind = r["load"]["kind"]
    if kind in ("steady-decode", "steady-prefill"):
        return (f"load {kind} of a {r['hardware']['nodes']}-node deployment measured from engine logs: "
                "not attempted (multi-node)")
    if kind in ("burst", "offline-batch"):
        return (f"load {kind}: every request sent at t=0; aiconfigurator's agg estimate is a steady concurrency "
                "and its static mode one batch without queueing (not attempted)")
    if kind not in LOADS:
        return f"load {kind}: aiconfigurator has no arrival model"
    if r.get("speculative"):
        return "speculative decoding"
    lay = r["layout"]
    if not all(known(lay.get(k)) for k in ("tp", "pp", "dp", "ep")) or not known(r["load"].get("concurrency")):
        return "layout or concurrency unknown"
    isl, osl = lengths(r["workload"])
    if isl is None:
        return "lengths unknown"
    if int(lay["pp"]) != 1 or int(r["hardware"]["nodes"]) != 1:
        return "multi-node or pipeline-parallel (not attempted)"
    return ""


def aic_model(r):
    m, w = r["model"].get("catalog"), str(r["model"].get("weights"))
    return MODELS_BY_WEIGHTS.get((m, w), MODELS.get(m))


def figures(r):
    """The published figures aiconfigurator's result maps onto, by vlaunch's metric names."""
    f = r["figures"]
    out = []
    for k in ("output_tok_per_s_per_node", "input_tok_per_s_per_node", "output_tok_per_s_per_gpu",
              "output_tok_per_s", "total_tok_per_s", "total_tok_per_s_per_gpu"):
        if known(f.get(k)):
            out.append(k)
    for k in ("ttft_ms", "tpot_ms"):
        if isinstance(f.get(k), dict) and known(f[k].get("mean")):
            out.append(k + ".mean")
    return out


def predict(r, res, isl, osl):
    """Maps aiconfigurator's EstimateResult onto each figure of row r."""
    gpus, nodes = float(r["hardware"]["gpus"]), float(r["hardware"]["nodes"])
    out_tps = res.tokens_per_second  # = global batch / request latency x osl
    vals = {
        "output_tok_per_s": out_tps,
        "output_tok_per_s_per_gpu": out_tps / gpus,
        "output_tok_per_s_per_node": out_tps / nodes,
        "input_tok_per_s_per_node": out_tps * isl / osl / nodes,
        "total_tok_per_s": out_tps * (isl + osl) / osl,
        "total_tok_per_s_per_gpu": out_tps * (isl + osl) / osl / gpus,
        "ttft_ms.mean": res.ttft,
        "tpot_ms.mean": res.tpot,
    }
    return {k: vals[k] for k in figures(r)}


def aic_revision(aic_dir):
    try:
        with open(os.path.join(aic_dir, "REVISION")) as f:
            return f.read().strip()
    except OSError:
        return "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--aic", required=True, help="the OUT_DIR prepare.sh built")
    ap.add_argument("--published", default="published/throughput.yaml")
    ap.add_argument("--out", default="tools/aicmp/aiconfigurator-predictions.csv")
    ap.add_argument("--only", default="", help="comma-separated row ids (for a quick check)")
    args = ap.parse_args()

    logging.getLogger("aiconfigurator").setLevel(logging.ERROR)
    from aiconfigurator.cli.api import cli_estimate  # noqa: E402 (needs PYTHONPATH from prepare.sh)
    import aiconfigurator

    with open(args.published) as f:
        data = yaml.safe_load(f)
    only = set(filter(None, args.only.split(",")))
    lines = []
    for r in data["rows"]:
        if r.get("incomplete") or (only and r["id"] not in only):
            continue
        e, g, m = r["engine"]["name"], r["hardware"]["gpu"], r["model"].get("catalog")
        # Only rows on a GPU with tables and an engine aiconfigurator models are listed,
        # so the file stays about the rows the comparison is about.
        if e not in BACKENDS or g not in SYSTEMS:
            continue
        base = {"row": r["id"], "source": r["source"], "split": r["split"], "engine": e,
                "engine_version": r["engine"].get("version"), "gpu": g, "model": m,
                "weights": r["model"].get("weights")}
        reason = why_not(r)
        if reason:
            lines.append({**base, "metric": "", "aic_predicted": "", "status": "not expressed: " + reason})
            continue
        lay = r["layout"]
        tp, dp, ep = int(lay["tp"]), int(lay["dp"]), int(lay["ep"])
        moe_tp, moe_ep = (tp * dp // ep, ep) if ep > 1 else (tp * dp, 1)
        conc = int(r["load"]["concurrency"])
        batch = max(1, math.ceil(conc / dp))  # aiconfigurator's batch is per attention-DP rank
        isl, osl = lengths(r["workload"])
        backend, version = BACKENDS[e]
        kv = r["model"].get("kv_cache_dtype")
        kvq = "fp8" if kv and str(kv).startswith("fp8") else None
        params = {**base, "aic_system": SYSTEMS[g], "aic_model": aic_model(r), "aic_backend": backend,
                  "aic_version": version, "tp": tp, "attention_dp": dp, "moe_tp": moe_tp, "moe_ep": moe_ep,
                  "batch_per_rank": batch, "isl": isl, "osl": osl, "kvcache_quant": kvq or "auto"}
        try:
            res = cli_estimate(aic_model(r), SYSTEMS[g], mode="agg", backend_name=backend, backend_version=version,
                               isl=isl, osl=osl, batch_size=batch, tp_size=tp, attention_dp_size=dp,
                               moe_tp_size=moe_tp, moe_ep_size=moe_ep, kvcache_quant_mode=kvq)
        except Exception as exc:  # aiconfigurator rejects what it cannot model; record why
            msg = " ".join(str(exc).split())[:200]
            lines.append({**params, "metric": "", "aic_predicted": "",
                          "status": f"aiconfigurator failed: {type(exc).__name__}: {msg}"})
            print(f"{r['id']}: failed: {msg}", file=sys.stderr)
            continue
        status = "ok"
        if res.kv_cache_warning:
            status = "ok (aiconfigurator: batch exceeds its KV-cache estimate)"
        for metric, v in predict(r, res, isl, osl).items():
            lines.append({**params, "metric": metric, "aic_predicted": f"{v:.6g}", "status": status})
        print(f"{r['id']}: ttft {res.ttft:.1f} ms, tpot {res.tpot:.2f} ms, {res.tokens_per_second:.1f} tok/s",
              file=sys.stderr)

    header = [
        "# aiconfigurator predictions of vlaunch's published rows (agg mode, cli_estimate); written by tools/aicmp/aicmp.py",
        f"# aiconfigurator {aiconfigurator.__version__}, {aic_revision(args.aic)}",
        f"# command: PYTHONPATH=OUT/aic/src:OUT/shim /usr/bin/python3 tools/aicmp/aicmp.py --aic OUT"
        f" --published {args.published} --out {args.out}",
        "# defaults kept: ctx_tokens = isl (the estimator's default chunk budget), quantisation inferred from the"
        " model config except an fp8 KV cache where the row states one, database mode SILICON",
    ]
    d = os.path.dirname(os.path.abspath(args.out))
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".aicmp-")
    try:
        with os.fdopen(fd, "w", newline="") as f:
            for h in header:
                f.write(h + "\n")
            w = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
            w.writeheader()
            for line in lines:
                w.writerow(line)
        os.chmod(tmp, 0o644)
        os.replace(tmp, args.out)
    except BaseException:
        os.unlink(tmp)
        raise


if __name__ == "__main__":
    main()
