"""Randomized timing stress of `vlaunch check` on valid-looking specs.

usage: python3 tools/stress/gen.py SEED COUNT [VLAUNCH] [OUTDIR] [COMMAND]

Writes COUNT random specs (models x GPUs x 1-10,000 nodes x auto/pinned
layouts x concurrency 1-1e6 x open loops and bursts x max_model_len up to
16 Mi x 0/1/3/16 TTFT lengths x MTP x chunk sizes) into OUTDIR and prints,
per spec, check's wall time and peak RSS (GNU time), its exit code and
whether it stopped at validation ("val") or ran the estimate ("chk").
#15 asks check on any valid spec under 2 s and 500 MB; this is how the
corners in the 2026-12-03 stop note were found. Not run by CI.
"""
import os, random, subprocess, sys
R = random.Random(int(sys.argv[1]))
N = int(sys.argv[2])
BIN = sys.argv[3] if len(sys.argv) > 3 else "vlaunch"
OUT = sys.argv[4] if len(sys.argv) > 4 else "/tmp/vlaunch-stress"
CMD = sys.argv[5] if len(sys.argv) > 5 else "check"  # or plan, generate (--out-dir is added)
os.makedirs(OUT, exist_ok=True)
models = ["deepseek-v3","kimi-k2","glm-4.5","gpt-oss-120b","llama-3.1-405b","llama-3.1-8b","mixtral-8x7b","qwen3-235b-a22b","qwen3-30b-a3b","deepseek-v2-lite"]
gpus = ["h20-96g","h200","b200","a100-80g","h100-sxm","mi300x","l40s"]
versions = ["0.8.5","0.10.1","0.11.0","0.22.1"]
def spec():
    model = R.choice(models)
    nodes = R.choice([1,1,2,4,8,16,64,250,1000,10000])
    gpn = R.choice([8,8,8,4])
    conc = R.choice([1,8,200,1000,20000,1000000])
    mml = R.choice([4096,32768,131072,1000000,16777216])
    inp = min(mml-1, R.choice([128,1024,8000,100000,15000000]))
    out = max(1, min(mml-inp, R.choice([1,256,1024,16000,1000000])))
    w = [f"  concurrency: {conc}", f"  max_model_len: {mml}", f"  input_tokens: {inp}", f"  output_tokens: {out}"]
    r = R.random()
    if r < 0.25: w.append(f"  arrival_rate_per_s: {R.choice([0.01,1,100,10000])}")
    elif r < 0.4:
        w.append(f"  burst_requests: {R.choice([10,500,3000,20000])}")
    nt = R.choice([0,1,3,16])
    lens = sorted(set(R.randint(1, mml) for _ in range(nt)))
    ttft = "".join(f"    - {{input_tokens: {n}, p99_s: {R.choice([0.5,2,60])}}}\n" for n in lens)
    slo = "slo:\n  throughput_tokens_per_s: %d\n  tpot_ms: %d\n" % (R.choice([100,50000]), R.choice([20,200]))
    if ttft: slo += "  ttft:\n" + ttft
    par = "parallelism: auto" if R.random() < 0.5 else "parallelism: {tensor: %d, pipeline: 1, data: %d, expert: %s}" % (gpn, nodes, R.choice(["true","false"]))
    vl = [f'  version: "{R.choice(versions)}"', "  port: 8000"]
    if mml > 32768: vl.append('  env: {VLLM_ALLOW_LONG_MAX_MODEL_LEN: "1"}')
    if R.random()<0.3: vl.append(f"  max_num_batched_tokens: {R.choice([1,512,65536])}")
    if R.random()<0.3: vl.append(f"  max_num_seqs: {R.choice([1,64,4096])}")
    if model in ("deepseek-v3","kimi-k2","glm-4.5") and R.random()<0.3: vl.append("  speculative: {method: mtp, num_speculative_tokens: %d}" % R.choice([1,3]))
    ns = "".join(f"    - {{name: n{i}, address: 10.{i>>16&255}.{i>>8&255}.{i&255}, gpus: {gpn}, interface: eth0, rdma_devices: [mlx5_0]}}\n" for i in range(nodes))
    return f"""apiVersion: vlaunch/v1
kind: Deployment
model: {{name: {model}}}
hardware:
  gpu: {R.choice(gpus)}
  nodes:
{ns}  network:
    inter_node: {{kind: roce, bandwidth_gbit_per_s: {R.choice([25,400])}, nics_per_node: 1}}
workload:
""" + "\n".join(w) + "\n" + slo + par + "\nvllm:\n" + "\n".join(vl) + "\n"
for i in range(N):
    s = spec()
    path = f"{OUT}/s{sys.argv[1]}_{i}.yaml"
    open(path,"w").write(s)
    try:
        args = [CMD, path] + (["--out-dir", path + ".bundle", "--force"] if CMD == "generate" else [])
        p = subprocess.run(["/usr/bin/time","-f","%e %M",BIN] + args, capture_output=True, text=True, timeout=60)
        wall, rss = p.stderr.strip().split("\n")[-1].split()[:2]
        code = p.returncode
        stages = "val" if "SPEC" in p.stdout[-3000:]+p.stderr[-3000:] and "feasible:" not in p.stdout else "chk"
    except subprocess.TimeoutExpired:
        wall, rss, code, stages = ">60", "?", "T", "?"
    print(f"{path} {wall}s {rss}KB exit={code} {stages}", flush=True)
