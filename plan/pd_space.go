package plan

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/estimate/input"
	enum "github.com/vlaunch/vlaunch/estimate/layouts"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/pd"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/validate"
	"github.com/vlaunch/vlaunch/vllm"
)

// maxPDNodes is the most nodes plan splits into P/D pools: the pairs grow
// as the product of the two pools' layouts, each split's; past it the
// colocated search alone stays within #15's time.
const maxPDNodes = 64

// pdSearch is what every P/D candidate of one plan shares.
type pdSearch struct {
	// d is the deployment plan enumerates colocated candidates on (for a
	// P/D spec, its colocated base); src the spec P/D candidates are
	// written into (the P/D spec itself, or the colocated spec).
	d     *resolve.Deployment
	src   *spec.Deployment
	parts resolve.Parts
	own   Settings
	// ports a colocated spec's candidates move to (PDSettings).
	routerPort, enginePort int
	pools                  map[string]*pdPool
	// memo shares the P/D candidates' identical decode-pool simulations
	// (slo.Options.Memo), for this search, i.e. one plan run.
	memo *sim.Memo
	// fitting counts, by role, the pool choices that fit in memory (what
	// the plan says when no pair does); unpaired the pairs of them whose
	// tensor sizes the spec's connector does not pair (tpRule).
	fitting  map[string]int
	unpaired int
	// refused counts the pool choices resolve or validate refuses
	// (resolvePool), by reason: none of them is paired.
	refused Stats
	// shared are the pools of pairs sharing a node as resolve shares it
	// (pair), by pool key.
	shared map[string]*pdPool
	// dtypes are the weight formats and KV-cache dtypes both pools are
	// tried with (Space.dtypes: the colocated search's).
	dtypes []dtype
}

// pdPool is one pool choice, resolved and bounded once for every pair it
// is in.
type pdPool struct {
	role  string
	set   PoolSettings
	dtype dtype
	dep   *resolve.Deployment
	in    input.Input
	bound pd.PoolBound
	fits  bool
	err   error
	// sameNode: the pool is one of a pair resolved together on a node
	// both pools share (pair), every hand-off inside that node.
	sameNode bool
}

// pdNotTried says why a deployment gets no P/D candidates ("" when it
// does): the release must have NIXL (the connector vlaunch models and
// writes), and the nodes must hold two pools: of whole nodes, or on one
// node both pools share (not on Kubernetes, which resolve refuses); and
// the hand-off must be possible at all (pdRefused).
func pdNotTried(d *resolve.Deployment) string {
	nodes := len(d.NodeGPUs())
	switch {
	case d.PD != nil: // its own pools: only whether their hand-off can happen
	case d.Release.KVConnectorIn(vllm.NixlConnectorName) == vllm.Maybe:
		return fmt.Sprintf("P/D not tried: whether vLLM %s has %s (the KV connector vlaunch models and writes) is unverified", d.Release, vllm.NixlConnectorName)
	case d.Release.KVConnectorIn(vllm.NixlConnectorName) != vllm.Present:
		return fmt.Sprintf("P/D not tried: vLLM %s has no %s (the KV connector vlaunch models and writes)", d.Release, vllm.NixlConnectorName)
	case nodes == 1 && d.Runtime.Kind == "kubernetes":
		return "P/D not tried: one node on Kubernetes — vlaunch puts both pools on one node only with runtime.kind bare or docker (SPEC126)"
	case nodes == 1 && d.NodeGPUs()[0] < 2:
		return fmt.Sprintf("P/D not tried: one node of %d GPU — two pools need a GPU each", d.NodeGPUs()[0])
	case nodes > maxPDNodes:
		return fmt.Sprintf("P/D not tried: %d nodes — plan splits at most %d nodes into pools", nodes, maxPDNodes)
	case d.Workload.BurstRequests > 0:
		return "P/D not tried: a finite burst (workload.burst_requests) is not modelled for P/D"
	}
	if why := pdRefused(d); why != "" {
		return "P/D not tried: no KV hand-off is possible (" + why + ")"
	}
	return ""
}

// pdRefused is why no P/D candidate of d can hand its KV over
// (pd.HandoffRefused, check's EST110), "" when they can: it depends on the
// model, the release, the connector and the engines' flags, which every
// candidate takes from the spec (a P/D spec's own pools, else its engine
// for both pools).
func pdRefused(d *resolve.Deployment) string {
	if d.PD != nil && len(d.PD.Roles) == 2 {
		pre, dec := input.FromResolved(d.PD.Roles[0].Deployment), input.FromResolved(d.PD.Roles[1].Deployment)
		return pd.HandoffRefused(&pre, &dec, d.PD.Connector.Name)
	}
	in := input.FromResolved(d)
	return pd.HandoffRefused(&in, &in, vllm.NixlConnectorName)
}

// newPDSearch prepares the P/D side of a plan of d (the spec's deployment,
// colocated or P/D) whose colocated candidates are enumerated on base,
// trying the formats fs (nil: the spec's own).
func newPDSearch(d, base *resolve.Deployment, own Settings, fs []dtype) *pdSearch {
	if len(fs) == 0 {
		fs = []dtype{own.dtype()}
	}
	s := &pdSearch{d: base, src: d.Spec, parts: d.Parts(), own: own, pools: map[string]*pdPool{}, fitting: map[string]int{}, shared: map[string]*pdPool{}, dtypes: fs, memo: sim.NewMemo()}
	if d.PD == nil {
		p := d.Spec.VLLM.Port
		s.routerPort, s.enginePort = p, p+100
		if s.routerPort <= 0 {
			s.routerPort, s.enginePort = spec.DefaultRouterPort, spec.DefaultRouterPort+100
		}
	}
	return s
}

// splits are the prefill pool's node counts tried on n nodes: every one
// up to allSplits nodes; past it, eighths of the nodes (one to seven),
// thirds and the halves' neighbours being among them or close.
func splits(n int) []int {
	var out []int
	if n <= allSplits {
		for k := 1; k < n; k++ {
			out = append(out, k)
		}
		return out
	}
	for _, f := range []float64{1.0 / 8, 1.0 / 4, 1.0 / 3, 3.0 / 8, 1.0 / 2, 5.0 / 8, 2.0 / 3, 3.0 / 4, 7.0 / 8} {
		k := min(n-1, max(1, int(math.Round(f*float64(n)))))
		if len(out) == 0 || out[len(out)-1] != k {
			out = append(out, k)
		}
	}
	return out
}

// allSplits is the most nodes on which every split is tried.
const allSplits = 8

// candidates enumerates the P/D candidates: every weight format and
// KV-cache dtype of the colocated search (both pools run the same: the
// connector moves the KV as it is stored), every split of the nodes (the
// first k to prefill, in the spec's order), every layout layouts.All
// gives each pool's nodes that the release places, each pool's backends
// where its all-to-all runs, and the prefill pool's token budget (the
// release's and twice it: a prefill pool runs no decode a larger chunk
// would stall). Only pools that fit in memory are paired.
//
// The first k nodes go to prefill, in the spec's order, and no other
// order is tried: the models read the fabric from hardware.network, never
// a node's own NICs (rdma_devices only reach the generated NCCL/UCX
// environment), so k nodes of equal GPU counts — every node, whenever a
// group spans nodes (SPEC102) — are costed alike whichever they are. Only
// nodes of unequal GPU counts under single-node groups differ; there the
// user's order decides (an assumption the plan's note states).
//
// On one node the pools share it (sharedCandidates); on up to
// maxBoundaryNodes nodes they may also share one boundary node
// (boundaryCandidates).
func (s *pdSearch) candidates() []Settings {
	var out []Settings
	for _, f := range s.dtypes {
		out = append(out, s.candidatesOf(f)...)
	}
	return out
}

// candidatesOf are the P/D candidates whose pools run formats f.
func (s *pdSearch) candidatesOf(f dtype) []Settings {
	var out []Settings
	nodes := s.src.GPUNodes() // not a P/D router's CPU-only host
	if len(nodes) == 1 {
		return s.sharedCandidates(f, nodes[0])
	}
	for _, k := range splits(len(nodes)) {
		pre := s.poolChoices(spec.RolePrefill, f, nodes[:k], nil)
		dec := s.poolChoices(spec.RoleDecode, f, nodes[k:], nil)
		out = append(out, s.pairs(pre, dec)...)
	}
	return append(out, s.boundaryCandidates(f, nodes)...)
}

// UseBoundaryNode: plan also splits a multi-node spec at a boundary node
// both pools share (boundaryCandidates). false keeps multi-node pools on
// whole nodes (the search before it).
var UseBoundaryNode = true

// maxBoundaryNodes is the most nodes on which plan tries boundary splits:
// n nodes of G GPUs have n·(G−1) of them (each with its own pool layouts,
// every pair resolved together), against the n−1 whole-node splits; on up
// to allSplits nodes of 8 GPUs that is at most 56.
const maxBoundaryNodes = allSplits

// boundary is one boundary split of nodes: the prefill pool takes the
// nodes before node b whole and the first g GPUs of node b, the decode
// pool the rest of node b and the nodes after it whole.
type boundary struct{ b, g int }

// boundaries are the boundary splits of nodes (in the spec's order, as the
// whole-node splits): every node b, every g from 1 to all but one of its
// GPUs; none on Kubernetes (a node both pools name is refused there,
// SPEC126), with one node (sharedCandidates splits it), past
// maxBoundaryNodes or without UseBoundaryNode.
func (s *pdSearch) boundaries(nodes []spec.Node) []boundary {
	if !UseBoundaryNode || len(nodes) < 2 || len(nodes) > maxBoundaryNodes || s.src.Runtime.Kind == "kubernetes" {
		return nil
	}
	var out []boundary
	for b, n := range nodes {
		for g := 1; g < n.GPUs; g++ {
			out = append(out, boundary{b, g})
		}
	}
	return out
}

// boundaryCandidates are the P/D candidates of a multi-node spec whose
// pools share one node, the boundary (boundaries): each pool on its whole
// nodes plus its share of the boundary, every instance inside one node
// (what a pool sharing a node must be, resolve.NodeShare), each pool
// taking every GPU of its share. As on one node, only the pairs resolve
// places together are kept (pair: resolve's NodeShare decides the split,
// prefill first), and check's rule prices their hand-off: the router pairs
// any prefill instance with any decode instance, so the share of pairs both
// on the boundary node over NVLink, the rest over the NICs (estimate/pd's
// sharedNodeShare; resolve.Disaggregated.SameNode is false).
func (s *pdSearch) boundaryCandidates(f dtype, nodes []spec.Node) []Settings {
	var out []Settings
	for _, sp := range s.boundaries(nodes) {
		pre := s.poolChoices(spec.RolePrefill, f, nodes[:sp.b+1], sp.hosts(nodes, spec.RolePrefill))
		if len(pre) == 0 {
			continue
		}
		dec := s.poolChoices(spec.RoleDecode, f, nodes[sp.b:], sp.hosts(nodes, spec.RoleDecode))
		for _, c := range s.pairs(pre, dec) {
			if p, q, _ := s.pair(f, c.PD); p.err == nil && q.err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// hosts are the GPUs a pool of the split takes on each of its nodes.
func (sp boundary) hosts(nodes []spec.Node, role string) []int {
	var out []int
	if role == spec.RolePrefill {
		for _, n := range nodes[:sp.b] {
			out = append(out, n.GPUs)
		}
		return append(out, sp.g)
	}
	out = append(out, nodes[sp.b].GPUs-sp.g)
	for _, n := range nodes[sp.b+1:] {
		out = append(out, n.GPUs)
	}
	return out
}

// pairs are the candidates of every prefill choice with every decode one
// (of one format) whose tensor sizes the connector pairs in the release
// (tpRule).
func (s *pdSearch) pairs(pre, dec []*pdPool) []Settings {
	var out []Settings
	r := s.tpRule()
	for _, p := range pre {
		for _, q := range dec {
			if !r.pairs(p.set.TP, q.set.TP) {
				s.unpaired++
				continue
			}
			c := s.own
			c.TP, c.PP, c.DP, c.EP, c.Replicas = 0, 0, 0, false, 0
			c.Weights, c.KVCacheDType = p.dtype.weights, p.dtype.kv
			c.PD = &PDSettings{Prefill: p.set, Decode: q.set, RouterPort: s.routerPort, EnginePort: s.enginePort}
			out = append(out, c)
		}
	}
	return out
}

// sharedCandidates are the P/D candidates of a one-node spec: both pools
// on the node, the prefill pool on g of its GPUs (every g from 1 to all
// but one), the decode pool on the rest, each pool's layouts those
// layouts.All gives on that many GPUs (instances inside the node, as a
// node both pools name requires). Only the pairs resolve places are kept:
// resolve's NodeShare (through AssembleDisaggregated, pair) decides the
// split — the prefill pool's instances first, from GPU 0, then the decode
// pool's — and refuses what does not fit; plan does not re-derive it.
func (s *pdSearch) sharedCandidates(f dtype, n spec.Node) []Settings {
	var out []Settings
	for g := 1; g < n.GPUs; g++ {
		pre := s.poolChoices(spec.RolePrefill, f, []spec.Node{n}, []int{g})
		if len(pre) == 0 {
			continue
		}
		dec := s.poolChoices(spec.RoleDecode, f, []spec.Node{n}, []int{n.GPUs - g})
		for _, c := range s.pairs(pre, dec) {
			if p, q, _ := s.pair(f, c.PD); p.err == nil && q.err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// poolChoices are the pool choices of one role running formats f on nodes
// that fit in memory; gpus, when set, are the GPUs the pool takes on each
// node (its share of a node both pools use), else every GPU of each node.
func (s *pdSearch) poolChoices(role string, f dtype, nodes []spec.Node, gpus []int) []*pdPool {
	var names []string
	hosts := make([]int, len(nodes))
	for i, n := range nodes {
		names, hosts[i] = append(names, n.Name), n.GPUs
	}
	var ls []resolve.Layout
	switch {
	case gpus == nil:
		ls = enum.Placeable(enum.All(len(nodes), s.d.Layout.GPUsPerNode, s.d.Model), hosts, s.d.Release)
	case len(gpus) == 1:
		ls = enum.Placeable(enum.All(1, gpus[0], s.d.Model), gpus, s.d.Release)
	default:
		// Placed by the pair (pair: resolve's NodeShare places a pool
		// sharing a node, each instance inside one node, what
		// resolve.Place's colocated rule does not on unequal shares).
		ls = shareLayouts(gpus, s.d.Model)
	}
	var all, fresh []*pdPool
	for _, l := range ls {
		if l.BlockSplitProblem(s.d.Model, fromCheckpoint(s.d, f.weights)) != "" {
			continue
		}
		for _, b := range s.backends(l) {
			for _, t := range s.tokens(role) {
				for _, q := range s.seqs(role, l) {
					ps := PoolSettings{Nodes: names, Instances: l.ReplicaCount(), TP: l.TP, PP: l.PP, DP: l.DP, EP: l.EP, All2All: b, MaxNumSeqs: q, MaxNumBatchedTokens: t}
					p, isNew := s.resolvePool(role, f, ps)
					if isNew && p.err == nil {
						fresh = append(fresh, p)
					}
					all = append(all, p)
				}
			}
		}
	}
	assessAll(s, fresh)
	var out []*pdPool
	for _, p := range all {
		if p.err == nil && p.fits {
			s.fitting[role]++
			out = append(out, p)
		}
	}
	return undominated(out, s.tpRule())
}

// assessWorkers is how many goroutines assess a role's new pools at once
// (assessAll): each pool's bound and memory verdict are its own, the
// largest part of the P/D enumeration's time.
const assessWorkers = 4

// assessAll assesses ps (resolved, not yet assessed) concurrently. Each
// goroutine writes only its own pools' fields, so the result is the same
// as assessing them in order.
func assessAll(s *pdSearch, ps []*pdPool) {
	var wg sync.WaitGroup
	for w := range min(assessWorkers, len(ps)) {
		wg.Go(func() {
			for i := w; i < len(ps); i += assessWorkers {
				s.assess(ps[i])
			}
		})
	}
	wg.Wait()
}

// shareLayouts are the layouts of a pool taking hosts[i] GPUs of its i-th
// node, one node shared: instances inside one node (a pool sharing a node
// places each instance on one node, resolve.NodeShare) of a size dividing
// every host's count, so they take all of them — layouts.All' sub-node
// replicas (PP 1, DP inside only with EP) on unequal hosts.
func shareLayouts(hosts []int, m *catalog.Model) []resolve.Layout {
	g, total := 0, 0
	for _, h := range hosts {
		g, total = gcd(g, h), total+h
	}
	var out []resolve.Layout
	for per := g; per >= 1; per-- {
		if g%per != 0 {
			continue
		}
		for _, c := range enum.Enumerate(1, per, m) {
			if c.DP > 1 && !c.EP || c.EP && c.EPSize() == 1 || total/per > spec.MaxReplicas {
				continue
			}
			c.Replicas, c.Nodes, c.GPUsPerNode = total/per, len(hosts), per
			out = append(out, c)
		}
	}
	return out
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// undominated drops the pool choices another choice of the same nodes
// beats on every figure the pairs' bound reads (pd.Combine): its rate,
// its latency floors (prefill: each input length's; decode: TPOT and the
// first step) and, for decode pools, the TP × PP the KV transfer depends
// on (compared only among equals). A dropped choice's every pair has a
// bound no better than the same pair with the choice that beats it.
func undominated(ps []*pdPool, r tpRule) []*pdPool {
	var out []*pdPool
	for i, p := range ps {
		beaten := false
		for j, q := range ps {
			if i != j && dominates(q, p, r) && (!dominates(p, q, r) || j < i) {
				beaten = true
				break
			}
		}
		if !beaten {
			out = append(out, p)
		}
	}
	return out
}

// dominates reports whether q is at least as good as p on every figure
// and pairs with every tensor size of the other pool p pairs with
// under r (pairsAtLeast: else a pair of p's would have no pair of q's to
// be no better than).
func dominates(q, p *pdPool, r tpRule) bool {
	a, b := q.bound, p.bound
	if a.RatePerS < b.RatePerS || a.TPOTS > b.TPOTS || a.FirstStepS > b.FirstStepS {
		return false
	}
	if p.role == spec.RoleDecode && q.set.TP*q.set.PP != p.set.TP*p.set.PP {
		return false
	}
	for n, t := range b.PrefillS {
		if a.PrefillS[n] > t {
			return false
		}
	}
	return q.set.TP == p.set.TP || pairsAtLeast(r, p.role, q.set.TP, p.set.TP)
}

// maxPairTP is the largest tensor size of the other pool pairsAtLeast
// compares.
const maxPairTP = 128

// pairsAtLeast reports whether a pool of role with tensor size q pairs
// (r) with every tensor size of the other pool, up to maxPairTP, that one
// with tensor size p pairs with: the sizes plan's pools take, powers of
// two (layouts.Enumerate). Under NIXL only a prefill size above the
// decode's can fail to pair; under MooncakeConnector any unequal pair can
// before 0.19.0, and a decode size above the KV heads after.
func pairsAtLeast(r tpRule, role string, q, p int) bool {
	for t := 1; t <= maxPairTP; t *= 2 {
		withP, withQ := r.pairs(p, t), r.pairs(q, t)
		if role == spec.RoleDecode {
			withP, withQ = r.pairs(t, p), r.pairs(t, q)
		}
		if withP && !withQ {
			return false
		}
	}
	return true
}

// backends are a pool layout's all-to-all choices: the top-level setting
// ("") always and, where the all-to-all runs and vllm.env does not pin it,
// each backend of backendsFor (the colocated search's per-layout choice):
// the simulation picks per role (DeepEP's high-throughput kernels usually
// prefill best, its low-latency ones decode).
func (s *pdSearch) backends(l resolve.Layout) []string {
	out := []string{""}
	if !l.EP || l.DP <= 1 || s.d.Engine.All2All.From == resolve.SourceEnv {
		return out
	}
	return append(out, backendsFor(s.d, l.MultiNode())...)
}

// tokens are the prefill pool's max_num_batched_tokens choices (0: the
// top-level value) and the decode pool's (the top-level value only: a
// decode pool's steps hold one token per sequence).
func (s *pdSearch) tokens(role string) []int {
	out := []int{0}
	if role != spec.RolePrefill {
		return out
	}
	def := s.d.Engine.MaxNumBatchedTokens.Value
	if t := 2 * def; t <= s.d.Engine.MaxModelLen.Value && t > def {
		out = append(out, t)
	}
	return out
}

// seqs are a pool's max_num_seqs choices (0: the top-level value): a
// decode pool's are the colocated search's for its ranks (seqsChoices: the
// fullest rank's share of the sessions, when below the release's default,
// leaves the sampler's profiling rows to KV — what lets a tight decode pool
// hold every session); a prefill pool holds only the requests in flight
// there, so the top-level value.
func (s *pdSearch) seqs(role string, l resolve.Layout) []int {
	if role != spec.RoleDecode {
		return []int{0}
	}
	return seqsChoices(s.d, l.DP*l.ReplicaCount())
}

// pool resolves one pool choice running formats f as `vlaunch check` does
// (the spec's RoleView of the candidate, resolve.Assemble), its memory
// verdict and its bound, once.
func (s *pdSearch) pool(role string, f dtype, ps PoolSettings) *pdPool {
	p, isNew := s.resolvePool(role, f, ps)
	if isNew && p.err == nil {
		s.assess(p)
	}
	return p
}

// resolvePool is pool without the assessment: a pool new to s (isNew),
// resolved, which its caller must assess (poolChoices assesses a role's
// new pools together, assessAll) before anything reads it.
func (s *pdSearch) resolvePool(role string, f dtype, ps PoolSettings) (p *pdPool, isNew bool) {
	key := role + "|" + f.weights + "|" + f.kv + "|" + strings.Join(ps.Nodes, ",") + "|" + fmt.Sprint(ps.Instances, ps.TP, ps.PP, ps.DP, ps.EP, ps.All2All, ps.MaxNumSeqs, ps.MaxNumBatchedTokens)
	if p, ok := s.pools[key]; ok {
		return p, false
	}
	p = &pdPool{role: role, set: ps, dtype: f}
	s.pools[key] = p
	c := s.spec(f, &PDSettings{Prefill: ps, Decode: ps})
	p.dep, p.err = resolve.Assemble(c.RoleView(role), s.parts)
	if p.err == nil {
		if err := deepEPLLRefused(p.dep); err != nil {
			p.err = fmt.Errorf("%s pool: %w", role, err)
		}
	}
	if p.err == nil {
		p.err = poolRefused(role, p.dep)
	}
	if p.err != nil {
		s.refuse(p.err)
	}
	return p, true
}

// poolRefused is the first error validate's check of a pool's engine
// would report of a pool choice (validate.BundleRefusals on the pool's
// RoleView, what validate's pool checker runs, checkBundle): DBO on an
// all-to-all backend the release's assertion refuses (GEN004: DBO on
// allgather_reducescatter, or on a pool whose all-to-all does not run), a
// setting the release has no flag for (GEN011), an image without the
// backend's kernels (GEN009) … The rule stays validate's: plan asks it,
// and a pool it refuses is never paired, so no candidate of it is ranked.
func poolRefused(role string, dep *resolve.Deployment) error {
	if !UsePoolRefusals || dep.Spec == nil {
		return nil
	}
	for _, d := range validate.BundleRefusals(dep, dep.Spec.Runtime.Kind) {
		if d.Severity == diag.Error {
			return fmt.Errorf("%s pool: %s [%s]", role, d.Message, d.Code)
		}
	}
	return nil
}

// UsePoolRefusals: plan asks validate (poolRefused) whether it would
// refuse each P/D pool choice before pairing it; false pairs them all, as
// before, and only the listed candidates are verified (mergeAlike), so a
// refused pool's pairs were bounded, simulated and ranked.
var UsePoolRefusals = true

// refuse counts a pool choice refused by resolve or validate, by reason
// (PDSummary.RefusedPools), once per pool choice (resolvePool resolves
// each once, on the search's one goroutine, as s.pools is written).
func (s *pdSearch) refuse(err error) { s.refused.refuse(err.Error()) }

// assess fills a resolved pool's input, bound and memory verdict.
func (s *pdSearch) assess(p *pdPool) {
	role := p.role
	p.in = input.FromResolved(p.dep)
	// A pool whose KV cache holds no token does not fit, whatever the
	// findings say: they are not worked out (most prefill pool choices on
	// the reference, 2,268 of 2,508, each a memory estimate of its own).
	if role == spec.RolePrefill {
		p.bound = pd.PrefillBound(&p.in)
		// As check's prefill pool (one output token), holding at least one
		// request: how many it holds at once (pd.PrefillResident) is known
		// only from the simulation, which refines this (simulatePD); a
		// bound never refuses what check accepts.
		p.fits = p.bound.Pool.KVTokensPerRank > 0 && !pd.PrefillMemoryFindingsAt(&p.in, 1).HasErrors()
	} else {
		p.bound = pd.DecodeBound(&p.in)
		p.fits = p.bound.Pool.KVTokensPerRank > 0 && !memory.Findings(&p.in, &p.bound.Pool.Memory).HasErrors()
	}
}

// pair is a candidate's two pools and whether every hand-off stays inside
// one node (resolve.Disaggregated.SameNode, which check prices the KV
// transfer by). Pools of their own nodes are the pools pool resolves
// alone. Pools naming a common node are resolved together, as check
// resolves the spec (resolve.AssembleDisaggregated: its NodeShare splits
// the node — the one rule generate and validate apply — and refuses pools
// that do not fit there, the pools' err then); the pools' deployments
// carry their share (what the transfer's same-node pricing reads,
// Deployment.HostPID).
func (s *pdSearch) pair(f dtype, set *PDSettings) (pre, dec *pdPool, sameNode bool) {
	pre, dec = s.pool(spec.RolePrefill, f, set.Prefill), s.pool(spec.RoleDecode, f, set.Decode)
	if pre.err != nil || dec.err != nil || !shareANode(set) {
		return pre, dec, false
	}
	key := pdKey(f, set)
	if p, ok := s.shared[spec.RolePrefill+"|"+key]; ok {
		return p, s.shared[spec.RoleDecode+"|"+key], p.sameNode
	}
	c := s.spec(f, set)
	whole, err := resolve.AssembleDisaggregated(c, []*resolve.Deployment{pre.dep, dec.dep})
	out := make([]*pdPool, len(spec.Roles))
	for i, base := range []*pdPool{pre, dec} {
		p := &pdPool{role: base.role, set: base.set, dtype: f, err: err}
		if err == nil {
			p.dep, p.sameNode = whole.PD.Roles[i].Deployment, whole.PD.SameNode()
			s.assess(p)
		}
		out[i] = p
		s.shared[base.role+"|"+key] = p
	}
	return out[0], out[1], out[0].sameNode
}

// dtypeWords names the formats tried ("weights auto · KV auto, weights
// auto · KV fp8").
func (s *pdSearch) dtypeWords() string {
	var out []string
	for _, f := range s.dtypes {
		out = append(out, "weights "+f.weights+" · KV "+f.kv)
	}
	return strings.Join(out, ", ")
}

// tpRule is the P/D tensor-size rule plan pairs pools by: the one
// validate reports (SPEC128), vllm.PDTPPairing, for the connector the
// candidates' spec names, the release and the model. Plan never lists a
// pair validate refuses: such pairs reached the list's verification and the
// unmet SLOs' "closest" (deepseek-v3-32xh20 on 0.11.0: prefill TP 8 with
// decode TP 2, once its pools were tried with FP8 KV), and under
// MooncakeConnector, which pairs only equal sizes before 0.19.0, NIXL's
// rule let every unequal pair through.
type tpRule struct {
	conn  string
	v     vllm.Version
	heads int
	mla   bool
}

// tpRule is s's pairing rule.
func (s *pdSearch) tpRule() tpRule {
	r := tpRule{conn: s.connector(), v: s.d.Release.Version}
	if m := s.d.Model; m != nil {
		r.heads, r.mla = m.NumKVHeads, m.IsMLA()
	}
	return r
}

// mooncake reports the candidates' connector is MooncakeConnector, whose
// own tensor-size rule applies.
func (r tpRule) mooncake() bool {
	c, ok := vllm.KVConnectorNamed(r.conn)
	return ok && c.Name == vllm.MooncakeConnectorName
}

// pairs reports whether validate accepts prefill TP p with decode TP d.
func (r tpRule) pairs(p, d int) bool {
	return !vllm.PDTPPairing(r.conn, r.v, p, d, r.heads, r.mla).Refused
}

// spec is the spec a candidate with pools set running formats f writes
// (Settings.toSpec, what Apply writes and check reads).
func (s *pdSearch) spec(f dtype, set *PDSettings) *spec.Deployment {
	c := s.own
	c.Weights, c.KVCacheDType, c.PD = f.weights, f.kv, set
	return c.toSpec(s.src)
}

// shareANode reports whether the pools name a common node.
func shareANode(set *PDSettings) bool {
	for _, n := range set.Prefill.Nodes {
		if containsName(set.Decode.Nodes, n) {
			return true
		}
	}
	return false
}

// ownPD is the P/D spec's own pools as PoolSettings.
func ownPD(d *spec.Deployment) *PDSettings {
	g := d.Disaggregation
	pool := func(p spec.Pool) PoolSettings {
		q := PoolSettings{Nodes: append([]string(nil), p.Nodes...), Instances: p.InstanceCount(), TP: p.Parallelism.Tensor, PP: p.Parallelism.Pipeline,
			DP: p.Parallelism.Data, EP: p.Parallelism.Expert}
		if v := p.VLLM.All2AllBackend; v != nil {
			q.All2All = *v
		}
		if v := p.VLLM.MaxNumSeqs; v != nil {
			q.MaxNumSeqs = *v
		}
		if v := p.VLLM.MaxNumBatchedTokens; v != nil {
			q.MaxNumBatchedTokens = *v
		}
		return q
	}
	return &PDSettings{Prefill: pool(g.Prefill), Decode: pool(g.Decode)}
}

// noneFits says which pool no split of the nodes can hold: the decode pool
// keeps every session's KV beside the weights, the prefill pool the
// weights and one request of the workload.
func (s *pdSearch) noneFits() string {
	in := input.FromResolved(s.d)
	tokens, _ := in.SessionTokens()
	switch {
	case s.fitting[spec.RoleDecode] == 0 && s.fitting[spec.RolePrefill] == 0:
		return "P/D tried, none fits: on no split of the nodes does either pool hold the weights and its KV (the decode pool every session's, the prefill pool one request's)"
	case s.fitting[spec.RoleDecode] > 0 && s.fitting[spec.RolePrefill] > 0 && s.unpaired > 0 && s.tpRule().mooncake():
		return fmt.Sprintf("P/D tried, none pairs: no prefill pool that fits has a tensor size vLLM %s's MooncakeConnector pairs with a decode pool that fits beside it (equal sizes only before %s; from it, one size dividing the other and a decode TP at most the model's KV heads; SPEC128; %d such pairs)",
			s.d.Release, vllm.MooncakeHeteroTPFrom(), s.unpaired)
	case s.fitting[spec.RoleDecode] > 0 && s.fitting[spec.RolePrefill] > 0 && s.unpaired > 0:
		return fmt.Sprintf("P/D tried, none pairs: the prefill pools that fit have a larger tensor size than every decode pool that fits beside them, or one that does not divide it, which vLLM %s's NIXL does not pair (SPEC128; %d such pairs)",
			s.d.Release, s.unpaired)
	case s.fitting[spec.RoleDecode] == 0:
		return fmt.Sprintf("P/D tried, none fits: on no split of the nodes does the decode pool hold the weights and the KV of %d sessions of %d tokens, with any weight format and KV-cache dtype tried (%s; it keeps every session's; a prefill pool fits)",
			in.Workload.Concurrency, tokens, s.dtypeWords())
	}
	return "P/D tried, none fits: on no split of the nodes does the prefill pool hold the weights and one request of the workload (the decode pools fit)"
}
