package lint

import (
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// With a disaggregated --spec (`disaggregation:`), each pool is a colocated
// deployment of its own (spec.Deployment.RoleView: its nodes, its layout
// with `instances` as replicas, vllm with the pool's overrides), which is
// how validate, generate and check treat it. lint does the same: it
// assigns every server to a pool (assignPools) and runs the rules that
// compare an engine with the spec (Rule.perPool: VL401-VL405) once per
// pool, on the pool's servers against the pool's view. The other rules run
// once over all servers with the whole spec (its hardware and network are
// the pools' too). VL406-VL408 are what only a P/D spec says: each pool's
// kv_role, the connector, and the pools' instances.

// specPool is one pool of a disaggregated spec and the servers lint
// assigned it.
type specPool struct {
	// Role is spec.RolePrefill or spec.RoleDecode.
	Role string
	// View is the pool's colocated deployment (spec.Deployment.RoleView).
	View *spec.Deployment
	// KVRole is the kv_role the generator writes for the pool
	// (resolve.PoolKVRole: kv_producer, kv_consumer).
	KVRole string
	// Instances is the pool's instance count.
	Instances int
	// Servers are the servers assigned to the pool, in input order.
	Servers []*server
	// By says how each server was assigned (poolByName, poolByNode,
	// poolByRole), in Servers' order.
	By []string
}

// How a server was assigned to a pool.
const (
	poolByName = "its file's name"
	poolByNode = "its node"
	poolByRole = "its kv_role"
)

// runRules runs every rule over the pass; with a disaggregated spec the
// per-pool rules run once per pool instead (see the comment above).
func runRules(ps *pass) {
	if ps.Spec != nil && ps.Spec.Disaggregation != nil {
		ps.pools = assignPools(ps)
	}
	for _, r := range Rules {
		if r.check == nil {
			continue
		}
		if !r.perPool || ps.pools == nil {
			ps.rule = r
			r.check(ps)
			continue
		}
		for _, pl := range ps.pools {
			if len(pl.Servers) == 0 || pl.View == nil {
				continue
			}
			sub := *ps
			sub.Spec, sub.pool, sub.rule = pl.View, pl, r
			sub.Servers, sub.Groups = pl.Servers, groupServers(pl.Servers)
			r.check(&sub)
		}
	}
}

// specWhat names what a spec rule compares with in messages: "the spec",
// or "the spec's prefill pool" in a per-pool pass.
func (p *pass) specWhat() string {
	if p.pool == nil {
		return "the spec"
	}
	return "the spec's " + p.pool.Role + " pool"
}

// assignPools assigns each server to a pool of the spec: by its file's
// path (a directory or file named after the pool, as the generator writes
// prefill/ and decode/), else by its node (VLLM_HOST_IP or host is a node
// of one pool only), else by its kv_role (kv_producer: prefill,
// kv_consumer: decode). A server none of these places is in no pool
// (VL408 reports it).
func assignPools(ps *pass) []*specPool {
	d := ps.Spec
	var pools []*specPool
	nodePool := map[string]int{} // a node's address and name -> pool index
	for _, role := range spec.Roles {
		pl := d.Disaggregation.Pool(role)
		if pl == nil {
			continue
		}
		i := len(pools)
		pools = append(pools, &specPool{Role: role, View: d.RoleView(role), KVRole: resolve.PoolKVRole(role), Instances: pl.InstanceCount()})
		for _, k := range d.PoolNodeIndexes(role) {
			n := d.Hardware.Nodes[k]
			for _, key := range []string{n.Address, n.Name} {
				if key == "" {
					continue
				}
				if _, dup := nodePool[key]; dup {
					nodePool[key] = -1 // in two pools: tells nothing
				} else {
					nodePool[key] = i
				}
			}
		}
	}
	byRole := func(r string) int {
		for i, pl := range pools {
			if pl.KVRole == r {
				return i
			}
		}
		return -1
	}
	for _, s := range ps.Servers {
		i, by := poolFromName(pools, s.Inv.File), poolByName
		if i < 0 {
			i, by = -1, poolByNode
			for _, key := range []string{hostIP(s), s.Inv.Host} {
				if k, ok := nodePool[key]; ok && key != "" && k >= 0 {
					i = k
					break
				}
			}
		}
		if i < 0 {
			i, by = byRole(s.KV().Role), poolByRole
		}
		if i >= 0 {
			pools[i].Servers = append(pools[i].Servers, s)
			pools[i].By = append(pools[i].By, by)
		}
	}
	return pools
}

// poolFromName finds the pool a file's path names: a directory named
// after the pool (prefill/node0.sh) or a file whose name starts with it
// (decode-node2.sh, prefill.yaml); -1 when it names none or both.
func poolFromName(pools []*specPool, file string) int {
	found := -1
	for i, pl := range pools {
		for _, part := range strings.Split(path.Clean(strings.ReplaceAll(file, "\\", "/")), "/") {
			part = strings.ToLower(part)
			if part == pl.Role || strings.HasPrefix(part, pl.Role+"-") || strings.HasPrefix(part, pl.Role+"_") || strings.HasPrefix(part, pl.Role+".") {
				if found >= 0 && found != i {
					return -1
				}
				found = i
				break
			}
		}
	}
	return found
}

// poolOf is the pool a server was assigned to, nil for none.
func (p *pass) poolOf(s *server) *specPool {
	for _, pl := range p.pools {
		for _, o := range pl.Servers {
			if o == s {
				return pl
			}
		}
	}
	return nil
}

// UseSpecLayoutColocated makes VL405 and VL410 compare a colocated
// --spec's layout, model and engine settings too, as they compare each
// pool of a P/D spec. On since qa39: `lint --spec` of a colocated bundle
// generated for another model and TP than the spec's (a Llama-8B TP1
// bundle against a Qwen3-8B TP2 spec) said only VL403. Off restores the
// old reading of a colocated spec as hardware only (nodes, addresses,
// interfaces); lint's rule fixtures that used a spec for its hardware
// alone now use one with `parallelism: auto` and their own model.
var UseSpecLayoutColocated = true

// checkSpecLayout reports a server whose tensor, pipeline or data-parallel
// size, or expert parallel, is not its pool's layout (VL405; run per pool
// of a disaggregated spec). A colocated spec's layout is not compared yet:
// UseSpecLayoutColocated.
func checkSpecLayout(p *pass) {
	if p.pool == nil && !UseSpecLayoutColocated {
		return
	}
	if p.Spec == nil || p.Spec.Parallelism.Auto || p.Spec.Parallelism.IsZero() {
		return
	}
	want := p.Spec.Parallelism
	hint := "launch the layout " + p.specWhat() + " describes, or update the spec"
	for _, s := range p.Servers {
		for _, c := range []struct {
			flag string
			got  intArg
			want int
		}{{"tensor-parallel-size", s.TP(), want.Tensor}, {"pipeline-parallel-size", s.PP(), want.Pipeline}, {"data-parallel-size", s.DP(), want.Data}} {
			if c.want <= 0 || !c.got.Known || c.got.N == c.want || (!c.got.Set && s.FromConfig(c.flag)) {
				continue
			}
			p.ReportAt(s.Inv, c.got.At, hint, "--%s %d but %s has %d", c.flag, c.got.N, p.specWhat(), c.want)
		}
		if s.EP() != want.Expert && !s.FromConfig("enable-expert-parallel") {
			if want.Expert {
				p.ReportAt(s.Inv, s.Inv.Pos, hint, "no --enable-expert-parallel but %s runs the experts expert-parallel", p.specWhat())
			} else if f := s.Flag("enable-expert-parallel"); f != nil {
				p.ReportAt(s.Inv, f.At.Pos, hint, "--enable-expert-parallel but %s does not run the experts expert-parallel", p.specWhat())
			}
		}
	}
}

// checkSpecPDRole reports an engine of a pool whose kv_role is not the
// pool's (VL406): kv_producer for prefill, kv_consumer for decode, as the
// generator writes them (resolve.Role.KVRole). NixlConnector does not act
// on the role ("effectively a placeholder",
// vllm@026c83f9:docs/features/nixl_connector_usage.md, whose examples use
// kv_both), so with it kv_both is accepted and the other pool's role is a
// warning: the file contradicts the spec, and a reader, a router or a
// later connector that does read it is misled. A missing kv_role is
// VL132's.
func checkSpecPDRole(p *pass) {
	for _, pl := range p.pools {
		for _, s := range pl.Servers {
			k := s.KV()
			if !pdRelease(s) || !k.Given || !k.Known || k.Role == "" || k.Role == pl.KVRole {
				continue
			}
			nixl := isNixl(k)
			if nixl && k.Role == vllm.KVRoleBoth {
				continue
			}
			n := len(*p.out)
			p.ReportAt(s.Inv, k.pos("kv_role"), "the spec's "+pl.Role+" engines are "+pl.KVRole,
				"kv_role %s in the %s pool (assigned by %s): the spec's %s pool is %s", k.Role, pl.Role, byOf(pl, s), pl.Role, pl.KVRole)
			if nixl {
				(*p.out)[n].Severity = diag.Warning
				(*p.out)[n].Message += " (NixlConnector does not act on kv_role, but the file contradicts the spec)"
			}
		}
	}
}

// pdRelease reports a server linted for a release that has the spec's
// connector: a P/D spec names NixlConnector, the only one vlaunch resolves
// (validate/rules_pd.go), registered from nixlSince; before it VL133
// reports the connector and the pool rules say nothing.
func pdRelease(s *server) bool { return s.Rel.Version.AtLeast(nixlSince) }

// byOf says how a server was assigned to its pool.
func byOf(pl *specPool, s *server) string {
	for i, o := range pl.Servers {
		if o == s {
			return pl.By[i]
		}
	}
	return ""
}

// checkSpecPDConnector reports an engine of a pool with no
// --kv-transfer-config, or with another connector than the spec's
// disaggregation.connector (VL407; a short form such as "nixl" is the
// registry's name, vllm.KVConnectorNamed).
func checkSpecPDConnector(p *pass) {
	if p.pools == nil {
		return
	}
	want, ok := vllm.KVConnectorNamed(p.Spec.Disaggregation.Connector)
	if !ok {
		return // validate reports an unknown connector
	}
	for _, pl := range p.pools {
		for _, s := range pl.Servers {
			if !pdRelease(s) {
				continue
			}
			k := s.KV()
			hint := "--kv-transfer-config '{\"kv_connector\":\"" + want.Name + "\",\"kv_role\":\"" + pl.KVRole + "\"}'"
			switch {
			case !k.Given && s.Inv.Frontend == "" && !s.FromConfig("kv-transfer-config"):
				// A headless node's engine cores read their own flags:
				// it needs the config as the primary does.
				p.ReportAt(s.Inv, s.Inv.Pos, hint, "this engine of the %s pool has no --kv-transfer-config: the spec's pools exchange the KV cache with %s", pl.Role, want.Name)
			case k.Known && k.Connector != "" && k.Connector != want.Name && !childIs(k, want.Name):
				p.ReportAt(s.Inv, k.pos("kv_connector"), hint, "kv_connector %s in the %s pool but the spec's connector is %s", k.Connector, pl.Role, want.Name)
			}
		}
	}
}

// childIs reports a MultiConnector with the named child connector.
func childIs(k kvTransfer, name string) bool {
	for _, c := range multiChildren(k) {
		if c == name {
			return true
		}
	}
	return false
}

// checkSpecPDPools reports, for a disaggregated spec, a pool no file
// starts an engine of, a pool whose files start another number of
// instances than the spec's `instances`, and an engine lint cannot place
// in either pool (VL408).
func checkSpecPDPools(p *pass) {
	if p.pools == nil || len(p.Servers) == 0 {
		return
	}
	first := p.Servers[0]
	if !pdRelease(first) {
		return
	}
	for _, pl := range p.pools {
		if len(pl.Servers) == 0 {
			p.ReportAt(first.Inv, first.Inv.Pos, "lint the "+pl.Role+" pool's scripts together with the others (a "+pl.Role+"/ directory, or files on its nodes)",
				"no engine of the spec's %s pool in the files linted: %d instance(s) on %s expected", pl.Role, pl.Instances, strings.Join(p.Spec.Disaggregation.Pool(pl.Role).Nodes, ", "))
			continue
		}
		n, s, known := instances(pl.Servers)
		if n != pl.Instances && known && oneRole(pl.Servers) {
			p.ReportAt(s.Inv, s.Inv.Pos, "start one engine (DP group) per instance, or update disaggregation."+pl.Role+".instances",
				"the files start %d %s instance(s) but the spec's %s pool has %d", n, pl.Role, pl.Role, pl.Instances)
		}
	}
	for _, s := range p.Servers {
		if p.poolOf(s) == nil && pdRelease(s) {
			p.ReportAt(s.Inv, s.Inv.Pos, "put the script under prefill/ or decode/, set VLLM_HOST_IP to a pool's node, or give kv_role kv_producer or kv_consumer",
				"this engine belongs to neither pool of the spec: its file names no pool, its node is no pool's and its kv_role (%q) names none", s.KV().Role)
		}
	}
}

// instances counts the engines (DP groups) the servers start: one per
// group, times its manifest object's replicas (launch.Invocation.Copies);
// at is the last group's first server, where a finding goes. known is
// false when a layout or a replica count is unknown.
func instances(ss []*server) (n int, at *server, known bool) {
	known = true
	for _, g := range groupServers(ss) {
		at = g[0]
		c := 1
		if at.Inv.Container != nil && at.Inv.Container.Runtime == "kubernetes" {
			c = at.Inv.Copies
		}
		if c <= 0 {
			known = false
		}
		n += c
		for _, s := range g {
			known = known && s.DP().Known && s.TP().Known
		}
	}
	return n, at, known
}

// oneRole reports that a pool's servers agree on kv_role: lint groups
// servers by role, so a server with another role (VL406's finding) would
// count as an instance of its own.
func oneRole(ss []*server) bool {
	for _, s := range ss {
		if s.KV().Role != ss[0].KV().Role {
			return false
		}
	}
	return true
}

// checkSpecSettings reports a server whose model or engine settings differ from
// those its pool's spec sets (VL410): disaggregation.<pool>.vllm over the
// top-level vllm block (spec.Deployment.RoleView), as the generator writes
// them. Only settings the spec writes are compared; a flag the server does
// not give runs vLLM's default, which is reported when the spec sets
// another value. Run per pool of a disaggregated spec; a colocated spec's
// settings only with UseSpecLayoutColocated.
func checkSpecSettings(p *pass) {
	if p.Spec == nil || (p.pool == nil && !UseSpecLayoutColocated) {
		return
	}
	v := p.Spec.VLLM
	type want struct {
		flag, text string
		same       func(string) bool
		// givenOnly: compared only where the server gives the flag
		// (--max-model-len: vLLM's default, the model's own maximum, is
		// not a mismatch vlaunch can size without the model's config)
		givenOnly bool
	}
	var ws []want
	intWant := func(flag string, n *int) {
		if n != nil {
			ws = append(ws, want{flag, strconv.Itoa(*n), func(t string) bool { got, ok := parseHumanInt(t); return !ok || got == *n }, false})
		}
	}
	intWant("max-num-seqs", v.MaxNumSeqs)
	intWant("max-num-batched-tokens", v.MaxNumBatchedTokens)
	intWant("block-size", v.BlockSize)
	if _, written := spec.NodeAt(p.Spec.Root, []string{"workload", "max_model_len"}, false); written && p.Spec.Workload.MaxModelLen > 0 {
		n := p.Spec.Workload.MaxModelLen
		// qa45c F2: check sizes KV and concurrency at the spec's
		// max_model_len; a server launched with another refuses longer
		// prompts (or holds fewer sequences). Only a value the spec
		// writes: a defaulted one is vlaunch's, not the user's.
		ws = append(ws, want{"max-model-len", strconv.Itoa(n), func(t string) bool { got, ok := parseHumanInt(t); return !ok || got == n }, true})
	}
	if g := v.GPUMemoryUtilization; g != nil {
		ws = append(ws, want{"gpu-memory-utilization", strconv.FormatFloat(*g, 'f', -1, 64), func(t string) bool {
			got, err := strconv.ParseFloat(t, 64)
			return err != nil || math.Abs(got-*g) < 1e-9
		}, false})
	}
	if k := v.KVCacheDType; k != "" && k != "auto" {
		ws = append(ws, want{"kv-cache-dtype", k, func(t string) bool { return strings.EqualFold(t, k) }, false})
	}
	hint := "give the value " + p.specWhat() + " sets, or update the spec"
	for _, s := range p.Servers {
		checkSpecModel(p, s)
		if s.Inv.Frontend != "" {
			continue
		}
		for _, w := range ws {
			val, ok := s.Str(w.flag)
			switch {
			case !ok && !s.FromConfig(w.flag) && !w.givenOnly:
				p.ReportAt(s.Inv, s.Inv.Pos, hint, "no --%s (vLLM's default) but %s sets %s", w.flag, p.specWhat(), w.text)
			case ok && val.Known && !w.same(val.Text):
				p.ReportAt(s.Inv, val.Pos, hint, "--%s %s but %s sets %s", w.flag, val.Text, p.specWhat(), w.text)
			}
		}
		if b := v.All2AllBackend; b != "" && b != "auto" && p.Spec.Parallelism.Expert {
			if name, at, set := s.Backend(); set && name != b {
				p.ReportAt(s.Inv, at, hint, "all-to-all backend %s but %s sets %s", name, p.specWhat(), b)
			}
		}
	}
}

// checkSpecModel reports a server that serves another model than the
// spec's (part of VL410: the generator writes model.path as the model).
// Only models both resolved in the catalog and of different families are
// reported (familyKey: an -Instruct, a dated or a quantised sibling of
// the spec's model is the same model for this check); a local path or a
// model outside the catalog is not compared.
func checkSpecModel(p *pass, s *server) {
	want := specModel(p.Spec.Model.Name, p.Spec.Model.Path)
	got := modelFor(s)
	if got == nil {
		got = pathModel(s)
	}
	if want == nil || got == nil || familyKey(path.Base(want.HFRepo)) == familyKey(path.Base(got.HFRepo)) {
		return
	}
	name, _ := servedName(s)
	specPath := p.Spec.Model.Path
	if specPath == "" {
		specPath = want.HFRepo
	}
	p.ReportAt(s.Inv, s.Model.Pos, "serve "+specPath+", or lint against this deployment's own spec",
		"serves %s (%s) but %s serves %s (%s)", name, got.ID, p.specWhat(), specPath, want.ID)
}

// specModel is the catalog model a spec names: by catalog id, else by
// its path's repository.
func specModel(id, repo string) *catalog.Model {
	for _, m := range catalogModels() {
		if id != "" && m.ID == id {
			return m
		}
	}
	if repo == "" {
		return nil
	}
	base := path.Base(catalog.RepoName(repo))
	for _, m := range catalogModels() {
		if strings.EqualFold(path.Base(m.HFRepo), base) {
			return m
		}
	}
	return byFamily(base)
}
