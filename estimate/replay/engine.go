package replay

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/published"
	"github.com/vlaunch/vlaunch/vllm"
)

// engine is what a row's serving engine does that the simulation needs:
// its scheduling policy and limits, CUDA graphs, and the vLLM release whose
// rules stand in for it (SGLang and others are modelled with the newest
// release's kernel facts, an approximation the docs state).
type engine struct {
	name    string
	release vllm.Release
	// versioned: a vLLM row whose version resolves, inside the table or
	// beyond either end of it (then its nearest release stands in).
	versioned bool
	policy    sim.Policy
	maxSeqs   int
	batchTok  int
	graphs    bool
	// eager: every step in PyTorch eager mode (--enforce-eager);
	// prefillEager: prompt steps eager, decode captured (SGLang, vLLM V0).
	eager, prefillEager bool
	apiServer           bool // served over HTTP (the front end's costs apply)
	// apiServers is the API-server processes the front end's costs spread
	// over, as check spreads them (slo.ApplyEngine): apiServersOf.
	apiServers int
	// streamEvery is how many tokens one streamed chunk carries (SGLang's
	// --stream-interval; 1 elsewhere).
	streamEvery int
	// recvInterval is SGLang's --scheduler-recv-interval for the row
	// (sglangRecvInterval; 0 elsewhere, and with UseSGLangRecvInterval
	// off): sim.Config.RecvInterval.
	recvInterval int
	// piecewise: SGLang captures piecewise CUDA graphs for prefill steps
	// (sglangPiecewise; UseSGLangPiecewiseGraphs), up to the token ceiling
	// sglangPiecewiseTokens gives.
	piecewise bool
	// scheduleAhead: vLLM schedules the next step while the GPU runs this
	// one (async scheduling: the row's feature, else its own release's
	// default; sim.Config.ScheduleAhead).
	scheduleAhead bool
}

// SGLang defaults a source may not restate (python/sglang/srt/server_args.py,
// versions of 2025; the memory-dependent rules are simplified): chunked
// prefill 8,192 tokens, running requests bounded by the KV pool alone.
const (
	sglangChunk       = 8192
	sglangMaxRunning  = 4096
	v0MaxNumSeqs      = 256 // vLLM V0's default max_num_seqs
	v0WholeBatchFloor = 2048
)

// engineOf reads the row's engine.
func engineOf(r published.Row, g *catalog.GPU, maxModelLen int) engine {
	e := engine{name: r.Engine.Name, graphs: true, apiServer: r.Load.Kind != published.LoadOfflineBatch && r.Load.Kind != published.LoadSteadyDecode,
		streamEvery: 1}
	rel, _, err := vllm.ResolveString(releaseOf(r.Engine.Version))
	if err != nil || r.Engine.Name != "vllm" {
		rel = vllm.Newest()
	}
	e.release = rel
	e.versioned = r.Engine.Name == "vllm" && err == nil
	f := r.Features
	switch r.Engine.Name {
	case "vllm":
		e.maxSeqs, e.batchTok = rel.BatchDefaults(g.Name, g.MemoryGiB(), e.apiServer)
		if kind, _ := rel.Scheduler(); kind == vllm.SchedPrefillFirstWhole {
			e.policy, e.maxSeqs, e.prefillEager = sim.PrefillFirstWhole, v0MaxNumSeqs, true
			e.batchTok = max(maxModelLen, v0WholeBatchFloor)
		}
		if strings.Contains(r.Engine.Flags, "--enforce-eager") {
			e.graphs, e.eager = false, true
		}
	default: // sglang, deepseek-internal
		e.policy, e.maxSeqs, e.batchTok = sim.PrefillFirst, sglangMaxRunning, sglangChunk
		e.prefillEager = true // SGLang captures decode batches only
		if n := flagInt(r.Engine.Flags, "--stream-interval"); n > 0 {
			e.streamEvery = n
		}
		e.piecewise = UseSGLangPiecewiseGraphs && sglangPiecewise(r, g)
		if UseSGLangRecvInterval {
			e.recvInterval = sglangRecvInterval(r.Engine.Flags, r.Load.Concurrency.Int(), r.Layout.TP.Int())
		}
	}
	if r.Engine.Name == "vllm" {
		e.scheduleAhead = asyncScheduling(r, e)
	}
	e.apiServers = apiServersOf(r, e)
	if r.Engine.Name == "vllm" && e.policy != sim.PrefillFirstWhole {
		// EngineArgs' caps on its defaults, as resolve applies them to a
		// spec (vllm.Release.CappedBatchDefaults): one rule for both.
		lim, _, _ := rel.CappedBatchDefaults(vllm.BatchLimits{Seqs: e.maxSeqs, Tokens: e.batchTok},
			vllm.BatchLimits{Seqs: f.MaxNumSeqs.Int(), Tokens: f.MaxNumBatchedTokens.Int()},
			f.MaxNumSeqs.Positive(), f.MaxNumBatchedTokens.Positive(), rowAll2All(r), r.Layout.EP.Int() > 1, r.Layout.DP.Int())
		e.maxSeqs, e.batchTok = lim.Seqs, lim.Tokens
	}
	if f.MaxNumSeqs.Positive() {
		e.maxSeqs = f.MaxNumSeqs.Int()
	}
	if f.MaxNumBatchedTokens.Positive() {
		e.batchTok = f.MaxNumBatchedTokens.Int()
	}
	if f.CUDAGraphs.Known {
		e.graphs = f.CUDAGraphs.V
	}
	return e
}

// UseSGLangRecvInterval makes an SGLang row's --scheduler-recv-interval
// (sglangRecvInterval) gate when its scheduler takes new requests
// (sim.Config.RecvInterval: after a decode step, only every N-th
// schedule polls). Off, requests reach the scheduler at the next
// schedule, as before (issue #28, the held-out SGLang DeepSeek-R1 NVFP4
// B300 rows).
var UseSGLangRecvInterval = true

// UseSGLangPiecewiseGraphs lets an SGLang row whose server captured
// piecewise CUDA graphs for prefill (sglangPiecewise) replay graphs for its
// prefill steps up to the ceiling (sglangPiecewiseTokens) instead of
// paying the eager launch cost (perf.StepSetup.PrefillGraphTokens). Off:
// every SGLang prefill step runs eagerly, as before.
//
// Off, and moot on the rows the replay has (issue #28): the only SGLang
// rows of a release with piecewise graphs by default (0.5.10–0.5.12) are
// InferenceX's DeepSeek-R1 rows on v0.5.12 (inferencex-pr-3363, B200 FP8;
// inferencex-pr-3183, B300 NVFP4), and both launch with --moe-runner-backend
// flashinfer_trtllm, under which v0.5.12's server disables the graphs
// (sglangPiecewise); the B300 rows' --enable-symm-mem disables them too.
// So neither run had them, and on or off the replay is the same. (An
// earlier reading without those two conditions gave both runs the graphs:
// c1 TTFT −54…−74%, calibration 168 → 164, the aiconfigurator guard
// failed.) What separates the B200 rows' 160 ms c1 TTFT from the B300
// rows' 77 ms is therefore not piecewise graphs.
var UseSGLangPiecewiseGraphs = false

// sglangPiecewiseSince and sglangPiecewiseUntil bound the SGLang releases
// whose prefill-graph rules sglangPiecewise reproduces. Since: piecewise
// CUDA graphs on unless --disable-piecewise-cuda-graph from sgl-project/
// sglang PR #16331 "Piecewise Cuda Graph set default" (main commit
// c64274c74, 2026-03-02), after v0.5.9 was tagged (the docs cloned
// v0.5.9 by 2026-02-27) — so 0.5.10 is the first release with it, as
// ai-dynamo/aiconfigurator's SGLang collector also notes
// (collector/sglang/collect_attn.py: "enable_piecewise_cuda_graph … sglang
// <=0.5.9", "disable_piecewise_cuda_graph … sglang >=0.5.10"). Until:
// v0.5.12 (InferenceX's first v0.5.12 image, 2026-05-17; its nightly
// 0.5.12.dev20260509 is main of 2026-05-09). After it main replaced these
// rules with per-phase prefill graph backends (PR #23906, 2026-06-09) and
// dropped the MoE-runner guard (PR #27841, 2026-06-11); later releases are
// not modelled (no piecewise graphs replayed).
var (
	sglangPiecewiseSince = [3]int{0, 5, 10}
	sglangPiecewiseUntil = [3]int{0, 5, 12}
)

// sglangPiecewiseOffArchs are the architectures v0.5.12's server never
// captures piecewise graphs for (python/sglang/srt/configs/model_config.py
// piecewise_cuda_graph_disabled_model_archs, main at 6c0633b0, 2026-05-13).
var sglangPiecewiseOffArchs = map[string]bool{
	"DeepseekV32ForCausalLM": true, "DeepseekV4ForCausalLM": true, "DeepseekV4ForCausalLMNextN": true,
	"Qwen3NextForCausalLM": true, "GlmMoeDsaForCausalLM": true, "BailingMoeV2_5ForCausalLM": true, "LLaDAModelLM": true,
}

// sglangPiecewiseOffFlags are the server flags that, given, disable
// piecewise CUDA graphs in v0.5.10–v0.5.12
// (ServerArgs._handle_piecewise_cuda_graph, python/sglang/srt/
// server_args.py, main at 6c0633b0 of 2026-05-13, the stored main commit
// nearest before the v0.5.12 image; the list as of PR #16331 plus
// context parallel (#21907) and the CUDA-graph debug mode (#19102)):
// DP attention, torch.compile, LoRA, CPU offload / hierarchical cache,
// deterministic inference, symmetric memory ("torch.cuda.use_mem_pool is
// untraceable by dynamo"), the expert distribution recorder / EPLB, the
// debug mode, diffusion LLMs, multi-item scoring (_handle_multi_item_scoring).
var sglangPiecewiseOffFlags = []string{
	"--disable-piecewise-cuda-graph", "--enable-dp-attention", "--enable-torch-compile",
	"--enable-lora", "--lora-paths", "--enable-hierarchical-cache", "--enable-deterministic-inference",
	"--enable-symm-mem", "--enable-eplb", "--expert-distribution-recorder-mode", "--debug-cuda-graph",
	"--dllm-algorithm", "--enable-mis",
}

// sglangPiecewise reports whether an SGLang row's server captured piecewise
// CUDA graphs for prefill: a release from sglangPiecewiseSince to
// sglangPiecewiseUntil, on NVIDIA hardware, unless a condition its server
// disables them under holds (server_args.py at main 6c0633b0, 2026-05-13):
//   - --enforce-piecewise-cuda-graph skips every condition below;
//   - a flag of sglangPiecewiseOffFlags, DP attention in the layout,
//     pipeline parallelism, --attn-cp-size above 1, --cpu-offload-gb above
//     0, an MoE all-to-all backend (--moe-a2a-backend other than none), PD
//     disaggregation (--disaggregation-mode other than null), GGUF weights, a multimodal
//     model (the catalog's Wrapper) or an architecture of
//     sglangPiecewiseOffArchs (_handle_piecewise_cuda_graph);
//   - non-CUDA hardware (is_hip and the other platforms: condition 5);
//   - the MoE runner backend flashinfer_trtllm or flashinfer_mxfp4 for any
//     architecture but GptOssForCausalLM ("bypassed topk is incompatible
//     with torch.compile": _handle_moe_kernel_config), given by
//     --moe-runner-backend or chosen by the server: for
//     DeepseekV3ForCausalLM on an SM100 GPU (compute major 10) with no
//     all-to-all backend, the runner left at auto and a quantization of
//     fp8, modelopt_fp8, modelopt_fp4, modelopt_mixed or none
//     (_handle_model_specific_adjustments, "Use flashinfer_trtllm as MoE
//     runner backend on sm100 for DeepseekV3ForCausalLM").
//
// g may be nil (the hardware conditions then do not apply).
func sglangPiecewise(r published.Row, g *catalog.GPU) bool {
	if r.Engine.Name != "sglang" {
		return false
	}
	n, ok := sglangVersion(r.Engine.Version)
	if !ok || versionLess(n, sglangPiecewiseSince) || versionLess(sglangPiecewiseUntil, n) {
		return false
	}
	f := r.Engine.Flags
	if hasFlag(f, "--enforce-piecewise-cuda-graph") {
		return true
	}
	for _, name := range sglangPiecewiseOffFlags {
		if hasFlag(f, name) {
			return false
		}
	}
	if r.Layout.PP.Int() > 1 || r.Layout.DPAttention.V || flagInt(f, "--attn-cp-size") > 1 || flagInt(f, "--cpu-offload-gb") > 0 ||
		(flagWord(f, "--disaggregation-mode") != "" && flagWord(f, "--disaggregation-mode") != "null") || flagWord(f, "--load-format") == "gguf" || flagWord(f, "--quantization") == "gguf" {
		return false
	}
	if a2a := flagWord(f, "--moe-a2a-backend"); a2a != "" && a2a != "none" {
		return false
	}
	if g != nil && g.Vendor != "nvidia" {
		return false
	}
	var arch string
	if m, err := catalog.LookupModel(r.Model.Catalog); err == nil {
		arch = m.Architecture
		if sglangPiecewiseOffArchs[arch] || m.Wrapper != "" {
			return false
		}
	}
	runner := flagWord(f, "--moe-runner-backend")
	if (runner == "" || runner == "auto") && arch == "DeepseekV3ForCausalLM" && g != nil && g.ComputeMajor == 10 {
		switch flagWord(f, "--quantization") {
		case "", "fp8", "modelopt_fp8", "modelopt_fp4", "modelopt_mixed":
			runner = "flashinfer_trtllm"
		}
	}
	if (runner == "flashinfer_trtllm" || runner == "flashinfer_mxfp4") && arch != "GptOssForCausalLM" {
		return false
	}
	return true
}

// sglangVersion reads the leading x.y.z of an SGLang version string
// ("0.5.12", "v0.5.12.post1", "0.5.2 (+ Ant Group PRs)").
func sglangVersion(s string) ([3]int, bool) {
	var n [3]int
	v := strings.SplitN(strings.TrimPrefix(firstVersion(s), "v"), ".", 4)
	if len(v) < 3 {
		return n, false
	}
	for i := range n {
		d := strings.TrimFunc(v[i], func(c rune) bool { return c < '0' || c > '9' })
		x, err := strconv.Atoi(d)
		if err != nil {
			return n, false
		}
		n[i] = x
	}
	return n, true
}

// versionLess reports a < b.
func versionLess(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// flagWord is the word after "--name" or "--name=" in a command line, ""
// when the flag is absent or last.
func flagWord(flags, name string) string {
	f := strings.Fields(flags)
	for i, w := range f {
		if v, ok := strings.CutPrefix(w, name+"="); ok {
			return v
		}
		if w == name && i+1 < len(f) {
			return f[i+1]
		}
	}
	return ""
}

// sglangPiecewiseTokens is the largest prefill step, in tokens, an SGLang
// row with piecewise graphs (engine.piecewise) replays: its
// --piecewise-cuda-graph-max-tokens, else SGLang's default — 2,048 for an
// MLA model ("For MLA backend … we set the max tokens to 2048 by default",
// server_args.py), the chunked-prefill size otherwise. 0 without them.
func sglangPiecewiseTokens(r published.Row, e engine, mla bool) int {
	if !e.piecewise {
		return 0
	}
	if n := flagInt(r.Engine.Flags, "--piecewise-cuda-graph-max-tokens"); n > 0 {
		return n
	}
	if mla {
		return 2048
	}
	return e.batchTok
}

// recvRule is how the InferenceX sources restate a per-point
// --scheduler-recv-interval: "(10 below concurrency 16, else 30)",
// optionally "… else 30 at TP8" (then 10 at every other TP). The rule is
// the benchmark scripts' (SemiAnalysisAI/InferenceX at 843c6254,
// benchmarks/single_node/fixed_seq_len/dsr1_fp4_b300.sh: "if [[ $CONC
// -ge 16 ]]; then SCHEDULER_RECV_INTERVAL=30 else … 10"; dsr1_fp8_b200.sh
// the same inside "if [[ $TP -eq 8 ]]", 10 at TP4).
var recvRule = regexp.MustCompile(`--scheduler-recv-interval\s+\(\s*(\d+)\s+below\s+concurrency\s+(\d+),\s*else\s+(\d+)(?:\s+at\s+TP(\d+))?\s*\)`)

// sglangRecvInterval is the --scheduler-recv-interval of an SGLang
// command line at concurrency conc and tensor parallelism tp: the number
// given, or the per-point rule the sources restate (recvRule); 0 when
// the flag is absent (SGLang's default, 1: every schedule polls).
func sglangRecvInterval(flags string, conc, tp int) int {
	if m := recvRule.FindStringSubmatch(strings.Join(strings.Fields(flags), " ")); m != nil {
		lo, _ := strconv.Atoi(m[1])
		at, _ := strconv.Atoi(m[2])
		hi, _ := strconv.Atoi(m[3])
		if conc < at {
			return lo
		}
		if m[4] != "" {
			if t, _ := strconv.Atoi(m[4]); t != tp {
				return lo
			}
		}
		return hi
	}
	return flagInt(flags, "--scheduler-recv-interval")
}

// apiServersOf is how many API-server processes served a row: one for
// SGLang (one tokenizer manager) and for a vLLM row whose release is not
// known; else the row's --api-server-count — on every node that runs its
// own DP ranks under hybrid load balancing (--data-parallel-hybrid-lb, or
// an explicit start rank: vllm.Release.DefaultAPIServers' rule), on the
// head node otherwise — or, not given, the release's default for the
// row's DP size (vllm.Release.DefaultAPIServers). Before it every row ran
// one, whatever it said: the wide-EP benchmark's 32 API servers (vllm PR
// #29284) came out as one, and its front end capped the run.
func apiServersOf(r published.Row, e engine) int {
	if e.name != "vllm" || !e.versioned {
		return 1
	}
	flags := r.Engine.Flags
	nodes := max(1, r.Hardware.Nodes.Int())
	dp := max(1, r.Layout.DP.Int())
	hybrid := strings.Contains(flags, "--data-parallel-hybrid-lb") || strings.Contains(flags, "--data-parallel-start-rank")
	if n := flagInt(flags, "--api-server-count"); n > 0 {
		if hybrid {
			return n * nodes
		}
		return n
	}
	node := vllm.DPNode{Size: dp, HybridFlag: hybrid}
	if hybrid {
		node.LocalSize, node.LocalSizeSet = max(1, dp/nodes), true
	}
	n, _ := e.release.DefaultAPIServers(node)
	if hybrid {
		n *= nodes
	}
	return max(1, n)
}

// dplbOf is what decides the DP load balancer of a row's vLLM server with
// dp ranks (sim.DPLBFor, which check's deployments go through too): the
// API server's node as its flags state it, for vllm.Release.DPLoadBalancing
// (--data-parallel-size-local, else the row's DP over its nodes), and the
// API servers of one group (apiServersOf counts every node's under hybrid
// LB; a group is one node's).
func dplbOf(r published.Row, e engine, dp int) sim.DPLBDeployment {
	flags := r.Engine.Flags
	nodes := max(1, r.Hardware.Nodes.Int())
	local := flagInt(flags, "--data-parallel-size-local")
	localSet := local > 0
	if !localSet {
		local = max(1, dp/nodes)
	}
	has := func(f string) bool { return hasFlag(flags, f) }
	n := vllm.DPNode{Size: dp, Headless: has("--headless"), HybridFlag: has("--data-parallel-hybrid-lb"), ExternalFlag: has("--data-parallel-external-lb"),
		RankSet: has("--data-parallel-rank"), StartRankSet: has("--data-parallel-start-rank"), StartRank: flagInt(flags, "--data-parallel-start-rank"),
		LocalSize: local, LocalSizeSet: localSet || has("--data-parallel-hybrid-lb") || has("--data-parallel-start-rank")} // as apiServersOf reads a hybrid row
	d := sim.DPLBDeployment{VLLM: e.name == "vllm", Served: e.apiServer, Release: e.release, Node: n, APIServers: max(1, e.apiServers)}
	if sim.DPLBMode(d) == vllm.LBHybrid {
		d.APIServers = max(1, d.APIServers/nodes)
	}
	return d
}

// hasFlag reports whether a command line holds the flag name (alone or as
// name=value).
func hasFlag(flags, name string) bool {
	for _, f := range strings.Fields(flags) {
		if f == name || strings.HasPrefix(f, name+"=") {
			return true
		}
	}
	return false
}

// firstVersion is the leading x.y.z of a published version string
// ("0.7.4.dev181+gf35f8e22", "0.5.2 (+ Ant Group PRs)").
func firstVersion(v string) string {
	f := strings.Fields(v)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// flagInt reads "--name N" or "--name=N" from a quoted command line.
func flagInt(flags, name string) int {
	f := strings.Fields(strings.ReplaceAll(flags, "=", " "))
	for i := 0; i+1 < len(f); i++ {
		if f[i] == name {
			n := 0
			for _, c := range f[i+1] {
				if c < '0' || c > '9' {
					return 0
				}
				n = n*10 + int(c-'0')
			}
			return n
		}
	}
	return 0
}

// asyncScheduling reports whether a vLLM row's engine scheduled
// asynchronously: as its features say, else by its release's default
// (vllm.Release.AsyncSchedulingFor), as check decides it for a spec naming
// that release — a build newer than the table (0.31.1rc1.dev50) takes the
// newest release's default, as check does; a row whose version cannot be
// read is taken as synchronous.
func asyncScheduling(r published.Row, e engine) bool {
	if f := r.Features.AsyncScheduling; f.Known {
		return f.V
	}
	if !e.versioned {
		return false
	}
	method := ""
	if sp := r.Speculative; sp != nil {
		method = sp.Method
	}
	return e.release.AsyncSchedulingFor(nil, max(1, r.Layout.PP.Int()), method)
}

// rowAll2All is the vLLM all-to-all backend a row names (its features'
// description: "DeepEP low-latency" is deepep_low_latency, "NIXL EP"
// nixl_ep), "" where it names none the batch-default rule keys on.
func rowAll2All(r published.Row) string {
	a := strings.ToLower(r.Features.All2All)
	switch {
	case strings.Contains(a, "low-latency"), strings.Contains(a, "low_latency"):
		return vllm.BackendDeepEPLowLatency
	case strings.Contains(a, vllm.BackendNixlEP), strings.Contains(a, "nixl ep"):
		return vllm.BackendNixlEP
	}
	return ""
}
