package slo

import (
	"fmt"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/vllm"
)

// Result is the performance half of `vlaunch check`: the performance
// section, the SLO verdicts, the derivations of reference-scenario points
// 6–9 as notes, advice on the all-to-all backend (CodeFasterAll2All) as
// findings, and whether every SLO holds.
type Result struct {
	Performance *Performance
	SLO         []Verdict
	Notes       []memory.Note
	Findings    diag.Diagnostics
	// Feasible is false when any SLO fails.
	Feasible bool
}

// Evaluate runs the performance half for a deployment whose memory half
// is m. A GPU without BF16 TFLOPS or HBM bandwidth figures gets a
// performance section that only says so; a deployment where not even one
// max_model_len sequence fits is simulated with no KV capacity (vLLM
// refuses to start).
func Evaluate(in *input.Input, m *memory.Report, opt Options) Result {
	if !modelled(in) {
		return Result{Performance: &Performance{Notes: []string{"the GPU has no BF16 TFLOPS or HBM bandwidth figure: no performance estimate"}}, Feasible: true}
	}
	opt.kv = seqCostOf(m)
	pr := Predict(in, kvOf(m), kvSeqsOf(in, m), opt)
	return Result{Performance: &pr.Performance, SLO: pr.SLO, Notes: perfNotesFor(in, &pr),
		Findings: pr.advice, Feasible: pr.Feasible}
}

// modelled says the GPU has the figures the performance model needs.
func modelled(in *input.Input) bool {
	return in.GPU != nil && in.GPU.BF16TFLOPS > 0 && in.GPU.HBMBandwidthGBytesPerS > 0
}

// kvOf is the KV capacity per DP rank the performance half works with: 0
// when not even one max_model_len sequence fits (vLLM refuses to start).
func kvOf(m *memory.Report) int64 {
	if !m.Capacity.OneSequenceFits {
		return 0
	}
	return m.KVTokensPerRank
}

// seqCostOf is what a sequence costs of m's KV pool (Options.kv).
func seqCostOf(m *memory.Report) *sim.KVCost {
	c := sim.KVCost(m.SeqCost())
	return &c
}

// kvSeqsOf is how many sequences of the workload's input + output tokens
// one rank's KV holds (0 with kvOf's 0): the decode curve's KV limit, as
// the capacity section counts sequences.
func kvSeqsOf(in *input.Input, m *memory.Report) int {
	if kvOf(m) <= 0 {
		return 0
	}
	return m.SequencesFit(kvSessionTokens(in))
}

// kvSessionTokens is the context a session holds in the KV cache as the
// decode curve's KV limit and the sessions searches count it: the
// workload's session_tokens where it states them — the context the
// capacity section counts (input.Input.SessionTokens; one fact, one
// place: the curve of the reference, which sets 32,768, counted 47
// sequences of input + output per rank where capacity fits 2 sessions,
// and named 1504 sessions and a saturation near 512) — else one request's
// input + output tokens.
func kvSessionTokens(in *input.Input) int {
	if in.Workload.SessionTokens > 0 {
		n, _ := in.SessionTokens()
		return n
	}
	return in.Workload.InputTokens + in.Workload.OutputTokens
}

// perfNotesFor derives the figures a hand calculation usually gets wrong:
// FLOPs per token, Little's law against the weight-read floor, the network
// volume per token and per prefill, and where a prefill runs.
func perfNotesFor(in *input.Input, pr *Prediction) []memory.Note {
	p := &pr.Performance
	f, d, n := p.FLOPs, p.Decode, p.Network
	notes := []memory.Note{{Topic: "FLOPs per token", Text: fmt.Sprintf(
		"linear layers: 2 × active parameters (embedding excluded) = %.1f GFLOPs per token. Attention adds FLOPs that grow with context: "+
			"%.2f GFLOPs per token at the mean context %.0f, %.1f GFLOPs at max_model_len %d (%.2f GFLOPs per layer). "+
			"Decode attention does %.0f FLOPs per KV byte read; this GPU's ridge point is %.0f FLOPs/byte, so at long contexts it is %s-bound.",
		f.LinearPerToken/1e9, f.AttentionPerTokenAtMean/1e9, f.MeanContext, f.AttentionPerTokenAtMax/1e9, in.MaxModelLen,
		f.AttentionPerLayerAtMax/1e9, perf.AttentionIntensity(in), f.ArithmeticIntensityRidge, map[bool]string{true: "compute", false: "memory"}[f.DecodeComputeBoundAtMax])}}
	if in.Model.IsMoE() {
		notes[0].Text += fmt.Sprintf(" Counting all %.0fB parameters instead of the active ones would give %.2f TFLOPs per token; "+
			"figures of tens of TFLOPs per token are off by orders of magnitude.", in.Model.ParamCounts().Total/1e9, 2*in.Model.ParamCounts().Total/1e12)
	}
	if t := in.SLO.ThroughputTokensPerS; t > 0 {
		c := d.Concurrency
		notes = append(notes, memory.Note{Topic: "Throughput vs concurrency", Text: fmt.Sprintf(
			"by Little's law %.0f %s tokens/s with %d sessions is %.0f tokens/s per session: a decode step of %.1f ms. "+
				"A decode step must at least read the weights it uses on a GPU (%s): %.1f GB at %.1f TB/s = %.1f ms (floor, no efficiency). "+
				"Predicted step %.1f ms (%s-bound); the best steady throughput within KV capacity is %.0f output tokens/s.",
			t, in.SLO.ThroughputCounts, c, t/float64(c), 1e3*float64(c)/t, weightsReadText(in), d.Floors.WeightBytesPerGPU/1e9, in.GPU.HBMBandwidthGBytesPerS/1e3,
			d.Floors.WeightReadS*1e3, d.Step.TotalS*1e3, d.Step.Binding(), d.MaxOutputTokPerS)})
	}
	if n.InterBytesPerTokenPass > 0 || n.IntraBytesPerTokenPass > 0 {
		notes = append(notes, memory.Note{Topic: "Network", Text: networkNoteText(in, p)})
	}
	if in.Layout.DP > 1 {
		notes = append(notes, memory.Note{Topic: "Prefill parallelism", Text: fmt.Sprintf(
			"with DP attention a request's prefill runs on one DP rank: its attention and dense layers are not divided over the %d GPUs; "+
				"only routed experts are spread over the EP group. A %d-token prompt therefore takes %.0f ms on an idle system.",
			in.Layout.GPUs(), p.Prefill[0].InputTokens, p.Prefill[0].TTFTS*1e3)})
	}
	return notes
}

// weightsReadText says which weights the weight-read floor counts
// (perf.Floors.WeightReadS): all of a dense model's, and of a MoE's routed
// experts only those the step's tokens are expected to hit.
func weightsReadText(in *input.Input) string {
	if in.Model.IsMoE() {
		return "every dense weight, and the routed experts the step's tokens are expected to hit under uniform routing"
	}
	return "every weight resident on it"
}

func networkNoteText(in *input.Input, p *Performance) string {
	n := p.Network
	txt := fmt.Sprintf("all2all %s: one token's forward pass moves %.2f MB through NICs and %.2f MB over NVLink (dispatch %s, combine BF16, %d MoE layers). ",
		p.All2All, n.InterBytesPerTokenPass/1e6, n.IntraBytesPerTokenPass/1e6, dispatchDType(in, p), in.Model.MoELayerCount())
	if in.Layout.Nodes > 1 && linkName(in) == "multi-node NVLink" {
		txt += fmt.Sprintf("Between nodes the all-to-all runs over multi-node NVLink (%.0f GB/s per GPU and direction; the NICs carry only what leaves the NVLink domain). At %d sessions a decode step spends %.1f ms in all-to-all (%.0f%% of the step). ",
			in.Network.IntraGBytesPerS, p.Decode.Concurrency, n.DecodeStepS*1e3, 100*n.DecodeStepShare)
	} else if in.Layout.Nodes > 1 {
		txt += fmt.Sprintf("The inter-node link is %.2f GB/s per node (%.0f Gbit/s × %d NIC). At %d sessions a decode step spends %.1f ms in all-to-all (%.0f%% of the step). ",
			n.InterGBytesPerS, in.Network.InterGbitPerSPerNIC, in.Network.NICsPerNode, p.Decode.Concurrency, n.DecodeStepS*1e3, 100*n.DecodeStepShare)
	}
	r := n.Routing
	place, same := "node", "on the same node"
	if linkName(in) == "multi-node NVLink" {
		// The routing's "node" is what one NVLink reaches: the domain, not
		// a tray (qa42: "7.61 other GPUs on the same node" on 4-GPU trays).
		place, same = "NVLink domain", "in the same NVLink domain"
	}
	txt += fmt.Sprintf("Per token and MoE layer the experts sit on %.2f other %ss on average (%.2f remote expert copies, %.2f other GPUs %s)",
		r.RemoteNodes, place, r.RemoteExpertCopies, r.LocalGPUs, same)
	if in.Model.NGroup > 1 && in.Model.TopKGroup > 0 {
		txt += fmt.Sprintf(", with group-limited routing (%d of %d groups)", in.Model.TopKGroup, in.Model.NGroup)
	}
	txt += ". DeepEP high-throughput sends one copy per remote node, low-latency one per remote expert, " + vllm.BackendAllgatherReducescatter + " every token to every rank"
	if ht, ll := perf.ModeBytesPerToken(in, r); ht > 0 {
		txt += fmt.Sprintf(": per token and forward pass %.2f MB through NICs in high-throughput mode, %.2f MB in low-latency mode", ht/1e6, ll/1e6)
	}
	txt += "."
	for _, pf := range p.Prefill {
		txt += fmt.Sprintf(" A %d-token prefill pushes %.2f GB through its node's NICs (%.2f s of all-to-all).", pf.InputTokens, pf.InterBytesPerNode/1e9, pf.NetworkS)
	}
	if in.Network.InterKind == "roce" || in.Network.InterKind == "ethernet" {
		txt += " DeepEP's inter-node kernels need GPU-initiated RDMA (NVSHMEM IBGDA) on mlx5 NICs, ideally one per GPU; they are tested on InfiniBand, RoCE only in theory."
	}
	return txt
}

func dispatchDType(in *input.Input, p *Performance) string {
	if perf.Mechanism(in).PointToPoint() && p.GEMMPrecision == "fp8" {
		return "FP8 + scales"
	}
	return "BF16"
}
