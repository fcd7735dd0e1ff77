package logs

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/vllm"
)

// source is a process and the file it logged to, for evidence.
type picked struct {
	v val
	p *proc
}

// candidates orders who speaks for the engine on a figure of the given scope.
func (g *group) candidates(s scope) []*proc {
	var mains, cores, workers []*proc
	for _, p := range g.members {
		switch p.role {
		case roleWorker:
			workers = append(workers, p)
		case roleMain:
			mains = append(mains, p)
		default:
			cores = append(cores, p)
		}
	}
	sort.SliceStable(workers, func(i, j int) bool {
		a, b := workers[i].rankOrder(), workers[j].rankOrder()
		for k := range a {
			if a[k] != b[k] {
				return a[k] < b[k]
			}
		}
		return false
	})
	// An unprefixed process is a V0 driver (rank 0 of the first pipeline
	// stage) or a V1 engine core that logs without a prefix (≤0.9); either
	// way it speaks first.
	out := append([]*proc{}, mains...)
	switch s {
	case scopeWorker:
		out = append(append(out, workers...), cores...)
	case scopeArgs:
		out = append(append(append([]*proc{}, g.frontends...), out...), append(cores, workers...)...)
		return out
	default:
		out = append(append(out, cores...), workers...)
	}
	if g.sharedFronts && (s == scopeEngine || s == scopeWorker) {
		// The front-ends are every engine's: an engine's or a worker's
		// figure they logged cannot be told to be this engine's.
		return out
	}
	return append(out, g.frontends...)
}

// pick returns the first logged value of a field among the candidates.
func (g *group) pick(k field) (picked, bool) {
	for _, p := range g.candidates(fieldInfos[k].scope) {
		v := p.facts[k]
		if k == fActivationGiB && !v.set {
			v = derivedActivation(p)
		}
		if k == fNonTorchGiB && !v.set {
			v = derivedNonTorch(p)
		}
		if v.set {
			return picked{v, p}, true
		}
	}
	return picked{}, false
}

// derivedActivation: vLLM 0.6.4 logs peak torch memory including the
// weights; the activation peak is the difference.
func derivedActivation(p *proc) val {
	w := p.facts[fWeightsGiB]
	if !p.peakTorch.set || !w.set {
		return val{}
	}
	return val{num: round2(p.peakTorch.num - w.num), set: true, line: p.peakTorch.line, derived: true}
}

// derivedNonTorch: vLLM 0.26+ logs weights and non-torch memory as one
// "consumed memory (weights + non-torch)" figure; non-torch is the
// difference from the weights the same worker logged.
func derivedNonTorch(p *proc) val {
	w := p.facts[fWeightsGiB]
	if !p.consumed.set || !w.set || p.consumed.num < w.num {
		return val{}
	}
	return val{num: round2(p.consumed.num - w.num), set: true, line: p.consumed.line, derived: true}
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// negativeGraphWhy says why a negative "Graph capturing finished in N
// secs, took X GiB" is not the graphs' memory: vLLM's capture_model
// (vllm/v1/worker/gpu_model_runner.py, every V1 release the fixtures show)
// logs start_free_gpu_memory − end_free_gpu_memory, two readings of
// torch.cuda.mem_get_info around the capture. A negative value means the
// device's free memory rose during the capture: on a unified-memory GPU
// (DGX Spark's GB10, whose "GPU memory" is the system's LPDDR5X,
// catalog/gpus.go) the operating system, the page cache and other
// processes move that figure, so it is noise there, and a capture cannot
// free memory on any GPU. The figure is reported as logged and used as no
// memory fact (the Compare terms never read it).
const negativeGraphWhy = "negative: vLLM logs the capture's cost as the free memory before minus after it (torch.cuda.mem_get_info); free memory rose during the capture, as the operating system and other processes move it on a unified-memory GPU (GB10), so it is noise, not the graphs' size"

// notMemoryNotes says, per engine, which figures were kept as read but are
// not memory facts, where they were logged, and why.
func notMemoryNotes(engines []Engine) []string {
	var out []string
	for _, e := range engines {
		if why, ok := e.NotMemory["cuda_graph_gib"]; ok && e.CUDAGraphGiB != nil {
			out = append(out, fmt.Sprintf("engine %s: the CUDA graph figure %g GiB (%s) is kept as logged but is not a memory figure: %s",
				e.ID, *e.CUDAGraphGiB, e.Evidence["cuda_graph_gib"], why))
		}
	}
	return out
}

// engine builds the report entry of one group.
func (a *analyzer) engine(g *group) Engine {
	e := Engine{ID: g.id(), Evidence: map[string]string{}, Ranks: []Rank{}}
	if g.dp >= 0 {
		e.DPRank = intPtr(g.dp)
	}
	if g.attempt > 1 {
		e.Attempt = g.attempt
	}
	b := evidence{a: a, g: g, e: &e}
	e.Version = b.str(fVersion)
	if e.Version == "" {
		e.VersionAfter = b.str(fVersionAfter)
	}
	e.EngineGeneration = b.str(fEngineGen)
	e.Model = b.str(fModel)
	e.MaxModelLen = b.int(fMaxModelLen)
	e.TP, e.PP, e.DP, e.DPLocal = b.int(fTP), b.int(fPP), b.int(fDP), b.int(fDPLocal)
	e.DCP = b.int(fDCP)
	e.TPAtLeast, e.PPAtLeast = b.rankBound(e.TP, func(p *proc) int { return p.tp }), b.rankBound(e.PP, func(p *proc) int { return p.pp })
	e.ExpertParallel = b.boolean(fEP)
	e.Architecture, e.ModelRunner = b.str(fArchitecture), b.str(fModelRunner)
	e.GPUTotalGiB, e.GPUMemoryUtilization = b.num(fGPUTotalGiB), b.num(fUtil)
	e.UtilizationWithoutGraphProfiling = b.num(fUtilNoGraphProfiling)
	b.weights()
	e.ActivationPeakGiB, e.NonTorchGiB = b.num(fActivationGiB), b.num(fNonTorchGiB)
	e.CUDAGraphGiB, e.AvailableKVGiB = b.num(fCUDAGraphGiB), b.num(fAvailableKVGiB)
	if pk, ok := g.pick(fEnforceEager); ok && strings.EqualFold(pk.v.str, "true") {
		b.note(fEnforceEager, pk)
		e.CUDAGraphsOff = "enforce_eager"
	}
	if e.CUDAGraphGiB != nil && *e.CUDAGraphGiB < 0 {
		e.NotMemory = map[string]string{"cuda_graph_gib": negativeGraphWhy}
	}
	e.NumGPUBlocks, e.BlockSize = b.int64(fGPUBlocks), b.int(fBlockSize)
	b.bindingKV()
	e.ConsumedGiB = b.consumed()
	e.MambaPagePaddingPct = b.num(fMambaPadPct)
	e.KVCacheTokens = b.int64(fKVTokens)
	if e.KVCacheTokens == nil && e.NumGPUBlocks != nil && e.BlockSize != nil {
		t := *e.NumGPUBlocks * int64(*e.BlockSize)
		e.KVCacheTokens = &t
		e.Derived = append(e.Derived, "kv_cache_tokens")
	}
	e.MaxConcurrency, e.ConcurrencyTokens = b.num(fConcurrency), b.int(fConcurrencyLen)
	if e.MaxModelLen == nil && e.ConcurrencyTokens != nil {
		e.MaxModelLen = intPtr(*e.ConcurrencyTokens)
		e.Evidence["max_model_len"] = e.Evidence["max_concurrency_tokens"]
	}
	e.FlashInfer = b.str(fFlashInfer)
	e.EncoderCacheBudget, e.EncoderProfileItems = b.int64(fEncoderBudget), b.int(fEncoderItems)
	e.EncoderProfileModality = b.str(fEncoderModality)
	e.AttentionBackend, e.All2AllBackend = b.str(fAttention), b.str(fAll2All)
	e.KVCacheDType, e.Quantization = b.str(fKVCacheDType), b.str(fQuantization)
	e.Addresses = b.addresses()
	e.KVTransfer = b.kvTransfer()
	e.Args, e.Config = g.firstMap(func(p *proc) map[string]string {
		if p.argsOther > 0 {
			return nil // two argument sets: attributable to no engine (argsNotes)
		}
		return p.args
	}),
		g.firstMap(func(p *proc) map[string]string { return p.config })
	e.Files = g.files(a)
	for _, p := range g.members {
		e.Ranks = append(e.Ranks, a.rank(p))
		if p.phase.String() != "" && p.phase > phaseOf(e.Phase) {
			e.Phase = p.phase.String()
		}
	}
	if len(g.members) == 0 && len(g.frontends) > 0 {
		// Only the API server's lines (a paste of its part, a failure in
		// the front-end before any engine started): how far the start-up
		// got is what the front-end logged ("Supported tasks" once its
		// engines are up, vllm#45150), and the engine's own figures are
		// not in the log.
		e.FrontEndOnly = true
		for _, p := range g.frontends {
			if p.phase.String() != "" && p.phase > phaseOf(e.Phase) {
				e.Phase = p.phase.String()
			}
		}
	}
	e.Ready = phaseOf(e.Phase) >= phEngineReady
	if len(e.Evidence) == 0 {
		e.Evidence = nil
	}
	return e
}

func phaseOf(s string) phase {
	for i, n := range phaseNames {
		if n == s {
			return phase(i)
		}
	}
	return phNone
}

// evidence reads figures for an engine and records where each came from.
type evidence struct {
	a *analyzer
	g *group
	e *Engine
}

func (b evidence) note(k field, pk picked) {
	b.e.Evidence[fieldInfos[k].name] = fmt.Sprintf("%s:%d", b.a.files[pk.p.file].name, pk.v.line)
	if pk.v.derived {
		b.e.Derived = append(b.e.Derived, fieldInfos[k].name)
	}
}

func (b evidence) num(k field) *float64 {
	pk, ok := b.g.pick(k)
	if !ok || pk.v.str != "" {
		return nil
	}
	b.note(k, pk)
	v := pk.v.num
	return &v
}

func (b evidence) int(k field) *int {
	f := b.num(k)
	if f == nil || *f != math.Trunc(*f) || math.Abs(*f) > 1<<40 {
		return nil
	}
	return intPtr(int(*f))
}

func (b evidence) int64(k field) *int64 {
	f := b.num(k)
	if f == nil || *f != math.Trunc(*f) || math.Abs(*f) > 1<<50 {
		return nil
	}
	v := int64(*f)
	return &v
}

func (b evidence) str(k field) string {
	pk, ok := b.g.pick(k)
	if !ok {
		return ""
	}
	b.note(k, pk)
	return pk.v.str
}

func (b evidence) boolean(k field) *bool {
	s := b.str(k)
	if s != "true" && s != "false" {
		return nil
	}
	v := s == "true"
	return &v
}

// rankBound is the lower bound on a parallel size that the ranks of the
// engine's workers show (the highest rank plus one), when the log states
// no size (known is nil); nil when no worker names a rank above 0.
func (b evidence) rankBound(known *int, rank func(*proc) int) *int {
	if known != nil {
		return nil
	}
	hi := -1
	for _, p := range b.g.members {
		if p.role == roleWorker && rank(p) > hi {
			hi = rank(p)
		}
	}
	if hi < 1 {
		return nil // rank 0 alone bounds nothing
	}
	return intPtr(hi + 1)
}

// addresses collects the network endpoints the engine's processes logged.
func (b evidence) addresses() map[string]string {
	out := map[string]string{}
	for _, k := range []field{fDistInit, fDPAddress, fDPRPCPort, fMasterAddr, fRayAddress} {
		pk, ok := b.g.pick(k)
		if !ok {
			continue
		}
		b.note(k, pk)
		s := pk.v.str
		if s == "" {
			s = fmt.Sprint(pk.v.num)
		}
		out[fieldInfos[k].name] = s
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// firstMap returns the first non-empty map among engine members, then front-ends.
func (g *group) firstMap(get func(*proc) map[string]string) map[string]string {
	for _, p := range g.candidates(scopeAny) {
		if m := get(p); len(m) > 0 {
			return m
		}
	}
	return nil
}

func (g *group) files(a *analyzer) []string {
	seen := map[int]bool{}
	var out []string
	for _, p := range append(append([]*proc{}, g.members...), g.frontends...) {
		if !seen[p.file] {
			seen[p.file] = true
			out = append(out, a.files[p.file].name)
		}
	}
	sort.Strings(out)
	return out
}

var roleNames = map[role]string{roleMain: "main", roleAPI: "api-server", roleEngine: "engine-core", roleWorker: "worker"}

// rank describes one process.
func (a *analyzer) rank(p *proc) Rank {
	r := Rank{Label: p.label, Role: roleNames[p.role], Host: p.host, PID: p.pid, Phase: p.phase.String(),
		Lines: p.lines, Last: a.ref(p.last, p)}
	r.Rank, r.DPRank, r.TPRank, r.PPRank, r.EPRank = known(p.grank), known(p.dp), known(p.tp), known(p.pp), known(p.ep)
	if v := p.facts[fWeightsGiB]; v.set {
		r.WeightsGiB = floatPtr(v.num)
	}
	if v := p.facts[fAvailableKVGiB]; v.set {
		r.AvailableKVGiB = floatPtr(v.num)
	}
	return r
}

// ref is a process's last line with its text and time.
func (a *analyzer) ref(l lineRef, p *proc) LineRef {
	return LineRef{File: a.files[l.file].name, Line: l.no, Time: string(p.lastStamp), Text: string(p.lastText)}
}

func known(n int) *int {
	if n < 0 {
		return nil
	}
	return intPtr(n)
}

func intPtr(n int) *int           { return &n }
func floatPtr(f float64) *float64 { return &f }

// kvTransfer collects the engine's KV connector figures.
func (b evidence) kvTransfer() *KVTransfer {
	kv := KVTransfer{Connector: b.str(fKVConnector), Role: b.str(fKVRole), EngineID: b.str(fKVEngineID),
		KVCacheLayout: b.str(fKVLayout), SideChannel: b.str(fSideChannel)}
	kv.RegisteredBlocks, kv.UseMLA = b.int64(fNixlBlocks), b.boolean(fNixlMLA)
	if s := b.str(fNixlBackends); s != "" {
		kv.Backends = strings.Split(s, ",")
	}
	for _, p := range b.g.candidates(scopeAny) {
		if p.kvMetrics != nil {
			m := *p.kvMetrics
			m.Evidence = fmt.Sprintf("%s:%d", b.a.files[m.first.file].name, m.first.no)
			kv.Metrics = &m
			break
		}
	}
	if kv.Connector == "" && kv.Role == "" && kv.EngineID == "" && kv.KVCacheLayout == "" && kv.SideChannel == "" && kv.Backends == nil && kv.Metrics == nil && kv.UseMLA == nil {
		return nil
	}
	if kv.Connector != "" {
		_, kv.Registered = vllm.KVConnector(kv.Connector)
		kv.NIXL = vllm.IsNixl(kv.Connector)
	}
	if !kv.NIXL && (kv.Backends != nil || kv.SideChannel != "" || kv.Metrics != nil || kv.UseMLA != nil) {
		// NIXL's own lines: a MultiConnector or an unnamed connector runs it.
		kv.NIXL = true
	}
	return &kv
}

// bindingKV: when the engine's ranks logged different KV budgets ("Current
// kv cache memory in use is 12.26 GiB" on TP0, 12.24 on TP1), every rank
// gets the smallest rank's block count — unify_kv_cache_configs "Change the
// num_blocks of each rank to the smallest among all ranks"
// (vllm/v1/core/kv_cache_utils.py:1146–1152 at v0.10.1.1) — so the minimum
// is the engine's figure, and each rank's is listed.
func (b evidence) bindingKV() {
	var ranks []RankGiB
	lo, at, loEv := 0.0, -1, ""
	seen := map[string]bool{}
	for _, p := range b.g.members {
		v := p.facts[fAvailableKVGiB]
		if !v.set || v.str != "" || seen[p.label] {
			continue
		}
		seen[p.label] = true
		ranks = append(ranks, RankGiB{Rank: p.label, GiB: v.num})
		if at < 0 || v.num < lo {
			lo, at, loEv = v.num, len(ranks)-1, fmt.Sprintf("%s:%d", b.a.files[p.file].name, v.line)
		}
	}
	differ := false
	for _, r := range ranks {
		differ = differ || r.GiB != lo
	}
	if !differ {
		return
	}
	b.e.AvailableKVByRank = ranks
	if b.e.PP != nil && *b.e.PP > 1 || b.stages() {
		// Pipeline stages hold different layers: a block costs each
		// stage its own bytes, so the binding rank is the one with the
		// fewest blocks, not the fewest GiB. Each rank's figure is
		// listed and the engine's stays the first one logged.
		b.e.AvailableKVPerRankOnly = true
		return
	}
	b.e.AvailableKVGiB = &lo
	b.e.Evidence[fieldInfos[fAvailableKVGiB].name] = loEv
}

// weights sets the engine's weights and their load time. Each rank logs
// its own: with pipeline parallelism the stages hold different layers
// (vllm-project/vllm-ascend#6678's PP=4 log: 18.88 GB on one rank, 21.22
// on another), so the engine's figure is the largest rank's — the GPU with
// the least room left — and its load time is what that same rank logged.
// When that rank logged no time, the time is the slowest rank's, kept
// apart (SlowestWeightsSeconds) so that no size is shown with another
// rank's time; when no rank logged a size, WeightsSeconds is the slowest
// rank's time. Equal sizes keep the first candidate (the driver).
func (b evidence) weights() {
	var ranks []RankGiB
	var big *proc
	seen := map[string]bool{}
	for _, p := range b.g.candidates(scopeWorker) {
		v := p.facts[fWeightsGiB]
		if !v.set || v.str != "" {
			continue
		}
		if !seen[p.label] {
			seen[p.label] = true
			ranks = append(ranks, RankGiB{Rank: p.label, GiB: v.num})
		}
		if big == nil || v.num > big.facts[fWeightsGiB].num {
			big = p
		}
	}
	if big == nil {
		// No size to pair it with: the time alone, the slowest rank's.
		b.e.WeightsSeconds = b.slowestLoad("weights_seconds")
		return
	}
	b.e.WeightsGiB = b.own(big, fWeightsGiB)
	b.e.WeightsSeconds = b.own(big, fWeightsSec)
	if b.e.WeightsSeconds == nil {
		b.e.SlowestWeightsSeconds = b.slowestLoad("slowest_weights_seconds")
	}
	for _, r := range ranks {
		if r.GiB != *b.e.WeightsGiB {
			b.e.WeightsByRank = ranks
			break
		}
	}
}

// own is the figure the process itself logged, with its evidence.
func (b evidence) own(p *proc, k field) *float64 {
	v := p.facts[k]
	if !v.set || v.str != "" {
		return nil
	}
	b.note(k, picked{v, p})
	n := v.num
	return &n
}

// slowestLoad is the longest weight-loading time the engine's ranks
// logged; key names its evidence.
func (b evidence) slowestLoad(key string) *float64 {
	var at *proc
	for _, p := range b.g.candidates(scopeWorker) {
		v := p.facts[fWeightsSec]
		if v.set && v.str == "" && (at == nil || v.num > at.facts[fWeightsSec].num) {
			at = p
		}
	}
	if at == nil {
		return nil
	}
	v := at.facts[fWeightsSec]
	b.e.Evidence[key] = fmt.Sprintf("%s:%d", b.a.files[at.file].name, v.line)
	n := v.num
	return &n
}

// stages reports whether the engine's ranks name pipeline stages past
// the first ("Worker_PP1").
func (b evidence) stages() bool {
	for _, p := range b.g.members {
		if p.pp > 0 {
			return true
		}
	}
	return false
}

// consumed is the first "consumed memory (weights + non-torch)" figure of
// the engine's ranks.
func (b evidence) consumed() *float64 {
	for _, p := range b.g.candidates(scopeWorker) {
		if p.consumed.set {
			v := p.consumed.num
			b.e.Evidence["weights_plus_non_torch_gib"] = fmt.Sprintf("%s:%d", b.a.files[p.file].name, p.consumed.line)
			return &v
		}
	}
	return nil
}
