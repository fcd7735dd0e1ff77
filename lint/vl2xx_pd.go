package lint

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// NIXL side-channel variables (their facts live in vllm/facts_pd.go).
const (
	nixlHostEnv = vllm.NixlSideChannelHostEnv
	nixlPortEnv = vllm.NixlSideChannelPortEnv
)

// nixlSince is NixlConnector's first release (vllm's connector table).
var nixlSince = func() vllm.Version {
	c, _ := vllm.KVConnector("NixlConnector")
	return c.Spans[0].Since
}()

// isNixl reports a NIXL connector (directly or as a MultiConnector child).
func isNixl(k kvTransfer) bool {
	if vllm.IsNixl(k.Connector) {
		return true
	}
	for _, c := range multiChildren(k) {
		if vllm.IsNixl(c) {
			return true
		}
	}
	return false
}

// pdServer reports a server that takes part in P/D disaggregation: a
// transfer connector, a producer/consumer role or a wrapper's P/D flag.
func pdServer(s *server) bool {
	k := s.KV()
	if k.Role == vllm.KVRoleProducer || k.Role == vllm.KVRoleConsumer || wrapperRole(s) != "" {
		return true
	}
	if k.Connector == "" {
		return false
	}
	c, ok := vllm.KVConnector(k.Connector)
	return !ok || !c.Offload // an offloading connector makes no P/D deployment by itself
}

// nixlServers are the NIXL engines of the run.
func nixlServers(p *pass) []*server {
	var out []*server
	for _, s := range p.Servers {
		if isNixl(s.KV()) && s.Rel.Version.AtLeast(nixlSince) {
			out = append(out, s)
		}
	}
	return out
}

// checkNixlHost reports NIXL engines whose side-channel host decoders on
// another node cannot reach: unset (vLLM advertises "localhost"), a
// loopback address or 0.0.0.0. A decoder then handshakes with its own
// listener: "Remote NIXL agent engine ID mismatch" and the prompt is
// recomputed (vllm-project/vllm#27083, F1: "because
// VLLM_NIXL_SIDE_CHANNEL_HOST was not set"). It applies when the engines
// span nodes: an instance over several nodes, servers on different ssh
// hosts or pods, or in different files that do not show one host (VL222).
func checkNixlHost(p *pass) {
	ns := nixlServers(p)
	if len(ns) == 0 {
		return
	}
	at := map[diagKey]int{} // a loopback value several engines share: one finding
	for _, s := range ns {
		if !spansNodes(p, s, ns) {
			continue
		}
		e, set := s.Inv.LookupEnv(nixlHostEnv)
		hint := "set " + nixlHostEnv + " to this node's routable IP (Kubernetes: status.podIP) on every P and D engine"
		n := len(*p.out)
		switch {
		case !set && !s.Inv.EnvOpen:
			p.ReportAt(s.Inv, s.Inv.Pos, hint,
				"%s is not set on a NIXL engine of a multi-node P/D deployment: it advertises \"localhost\", and a decoder on another node handshakes with itself (\"Remote NIXL agent engine ID mismatch\", vLLM #27083) and recomputes the prompt", nixlHostEnv)
		case set && e.Value.Known && isLoopback(strings.TrimSpace(e.Value.Text)) && len(e.Value.FromDefaults) > 0:
			// ${NIXL_SIDE_CHANNEL_HOST:-127.0.0.1}: the script's default for
			// a variable the caller is told to set per node; a warning, since
			// the loopback is only what runs when the caller leaves it unset.
			p.Report(s.Inv.File, e.Value.Pos, "set "+strings.Join(e.Value.FromDefaults, ", ")+" to this node's routable IP on each node",
				"%s=%s: %s is only the default of %s: set it to this node's address on each node, or decoders on another node cannot handshake with this engine (vLLM #27083)",
				nixlHostEnv, e.Value.Text, strings.TrimSpace(e.Value.Text), strings.Join(e.Value.FromDefaults, ", "))
			(*p.out)[len(*p.out)-1].Severity = diag.Warning
		case set && e.Value.Known && isLoopback(strings.TrimSpace(e.Value.Text)):
			p.Report(s.Inv.File, e.Value.Pos, hint,
				"%s=%s is not reachable from another node: decoders there cannot handshake with this engine (vLLM #27083)", nixlHostEnv, e.Value.Text)
		}
		// A pure consumer of the pull connector only dials out: its own
		// advertised host matters for push, bidirectional or role-switching
		// setups, so a warning there.
		if len(*p.out) > n && s.KV().Role == vllm.KVRoleConsumer && s.KV().Connector == "NixlConnector" {
			(*p.out)[n].Severity = diag.Warning
			(*p.out)[n].Message += " (this engine is a consumer: its own host matters once it is dialled, in push, bidirectional or role-switching setups)"
		}
		if len(*p.out) > n && set {
			onceAt(p, at, n)
		}
	}
}

// diagKey is where a finding is written.
type diagKey struct {
	file      string
	line, col int
}

// onceAt keeps one finding per position of those checkNixlHost reports,
// the most severe: a NIXL_SIDE_CHANNEL_HOST default two engines of a
// script share (`env "VLLM_NIXL_SIDE_CHANNEL_HOST=${HOST}"` in a prefill
// and a decode command) was reported twice on one line, an error for the
// producer and a warning for the consumer (qa45a input 09, read_file id
// 68830312021). The finding at index n is new; at records earlier ones.
func onceAt(p *pass, at map[diagKey]int, n int) {
	d := (*p.out)[n]
	k := diagKey{d.File, d.Line, d.Col}
	j, seen := at[k]
	if !seen {
		at[k] = n
		return
	}
	if d.Severity > (*p.out)[j].Severity {
		(*p.out)[j] = d
	}
	*p.out = (*p.out)[:n]
}

// spansNodes reports whether a NIXL engine's P/D deployment spans nodes.
func spansNodes(p *pass, s *server, ns []*server) bool {
	if s.MultiNodeDP() || s.NNodes().N > 1 || s.Headless() || s.Inv.Role != "" {
		return true
	}
	for _, o := range ns {
		if o == s {
			continue
		}
		if !p.sameHost(s, o) {
			return true
		}
	}
	return false
}

// sameHost reports whether two servers are shown to run on one host with
// one network namespace: same file and ssh host, not two Kubernetes pods
// nor two branches of one if or case (launch.Exclusive);
// two files whose host directives name one host (hostDirective); or,
// without directives, two files whose GPU lists are explicit and disjoint
// (one host split between engines, as vLLM's and the router's single-host
// recipes do).
func (p *pass) sameHost(a, b *server) bool {
	if kube(a) || kube(b) || a.Inv.Host != b.Inv.Host || launch.Exclusive(a.Inv, b.Inv) {
		return false
	}
	ha, oka := p.hosts[a.Inv.File]
	hb, okb := p.hosts[b.Inv.File]
	if oka && okb {
		return ha == hb
	}
	if a.Inv.File == b.Inv.File {
		return true
	}
	da, ok1 := visibleDevices(a)
	db, ok2 := visibleDevices(b)
	if !ok1 || !ok2 {
		return false
	}
	for d := range da {
		if db[d] {
			return false
		}
	}
	return true
}

// kube reports a server in a Kubernetes pod (its own network namespace).
func kube(s *server) bool {
	return s.Inv.Container != nil && s.Inv.Container.Runtime == "kubernetes"
}

// visibleDevices reads an explicit device list (CUDA_VISIBLE_DEVICES and
// the other platforms' equivalents).
func visibleDevices(s *server) (map[string]bool, bool) {
	for _, name := range []string{"CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ASCEND_RT_VISIBLE_DEVICES"} {
		e, ok := s.Inv.LookupEnv(name)
		if !ok || !e.Value.Known || strings.TrimSpace(e.Value.Text) == "" {
			continue
		}
		set := map[string]bool{}
		for _, d := range strings.Split(e.Value.Text, ",") {
			set[strings.TrimSpace(d)] = true
		}
		return set, true
	}
	return nil, false
}

// sidePorts are the side-channel ports a NIXL server listens on, on its
// host (vllm.NixlSidePorts); ok is false when a value is unresolved.
func sidePorts(s *server) (ports []int, base launch.Pos, ok bool) {
	b := vllm.NixlSideChannelDefaultPort(s.Rel.Version)
	base = s.Inv.Pos
	if e, set := s.Inv.LookupEnv(nixlPortEnv); set {
		n, err := strconv.Atoi(strings.TrimSpace(e.Value.Text))
		if !e.Value.Known || err != nil {
			return nil, base, false
		}
		b, base = n, e.Value.Pos
	}
	start, local, tp := s.StartRank(), s.DPL(), s.TP()
	if !start.Known || !local.Known || !tp.Known || local.N < 1 || local.N > 4096 || tp.N < 1 || tp.N > 4096 {
		return nil, base, false
	}
	return vllm.NixlSidePorts(s.Rel.Version, b, start.N, local.N, tp.N), base, true
}

// checkNixlPorts reports two NIXL engines on one host whose side-channel
// port ranges overlap (the second fails with "ZMQError: Address already in
// use", vLLM #20965: P and D in one container both on the default 5557), a
// range that takes another engine's API or DP RPC port, and two P/D
// instances that give the same engine_id (VL223).
func checkNixlPorts(p *pass) {
	ns := nixlServers(p)
	type claim struct {
		s   *server
		at  launch.Pos
		set map[int]bool
	}
	var claims []claim
	for _, s := range ns {
		if ports, at, ok := sidePorts(s); ok {
			set := map[int]bool{}
			for _, q := range ports {
				set[q] = true
			}
			claims = append(claims, claim{s, at, set})
		}
	}
	for i, c := range claims {
		for _, prev := range claims[:i] {
			if !p.sameHost(c.s, prev.s) || sameInstance(p, c.s, prev.s) || !concurrent(prev.s, c.s) {
				continue
			}
			if q := firstShared(c.set, prev.set); q > 0 {
				p.Report(c.s.Inv.File, c.at, "give each engine on a host its own "+nixlPortEnv+" base, at least its local DP size (×TP before 0.12) apart",
					"NIXL side-channel port %d is also used by the engine at %s:%d on the same host: the second engine fails with \"Address already in use\" (vLLM #20965)", q, prev.s.Inv.File, prev.s.Inv.Pos.Line)
				break
			}
		}
		for _, o := range p.Servers {
			if o == c.s || !p.sameHost(c.s, o) {
				continue
			}
			for _, flag := range []string{"port", "data-parallel-rpc-port"} {
				if v, ok := o.Str(flag); ok && v.Known {
					if n, err := strconv.Atoi(v.Text); err == nil && c.set[n] {
						p.Report(c.s.Inv.File, c.at, "move the side-channel base off the servers' ports",
							"NIXL side-channel port %d is the --%s of the server at %s:%d on the same host", n, flag, o.Inv.File, o.Inv.Pos.Line)
					}
				}
			}
		}
	}
	checkEngineIDs(p)
}

// concurrent reports two servers that run at the same time: in different
// files, or the earlier one started in the background.
func concurrent(earlier, later *server) bool {
	return (earlier.Inv.File != later.Inv.File || earlier.Inv.Background) && !launch.Exclusive(earlier.Inv, later.Inv)
}

// firstShared returns the smallest port in both sets (0 when none).
func firstShared(a, b map[int]bool) int {
	var shared []int
	for q := range a {
		if b[q] {
			shared = append(shared, q)
		}
	}
	if len(shared) == 0 {
		return 0
	}
	sort.Ints(shared)
	return shared[0]
}

// sameInstance reports two servers of one P/D instance (one DP group).
func sameInstance(p *pass, a, b *server) bool {
	for _, g := range p.Groups {
		var ha, hb bool
		for _, s := range g {
			ha = ha || s == a
			hb = hb || s == b
		}
		if ha && hb {
			return true
		}
	}
	return false
}

// checkEngineIDs reports one engine_id given to two P/D instances: NIXL
// identifies a remote engine by it (suffixed _dp<rank>), so the handshake
// meets the wrong engine.
func checkEngineIDs(p *pass) {
	seen := map[string][]*server{}
	for _, s := range p.Servers {
		k := s.KV()
		if k.EngineID == "" || !k.Known || !pdServer(s) {
			continue
		}
		for _, prev := range seen[k.EngineID] {
			if !sameInstance(p, prev, s) && !mdAlternatives(p, prev, s) {
				p.ReportAt(s.Inv, k.pos("engine_id"), "leave engine_id unset (vLLM draws a UUID) or give each instance its own",
					"engine_id %q is also given to the instance at %s:%d: NIXL tells engines apart by it", k.EngineID, prev.Inv.File, prev.Inv.Pos.Line)
				break
			}
		}
		seen[k.EngineID] = append(seen[k.EngineID], s)
	}
}

// checkPDConnector reports, in a P/D deployment, an engine of the same
// model without --kv-transfer-config: the proxy's kv_transfer_params are
// ignored ("Got kv_transfer_params, but no KVConnector found",
// kserve/kserve#5987) and the decoder recomputes every prompt (not an
// engine that cannot run alongside them, cannotCoexist); and, as a
// note, producers with no consumer in the files linted (VL224).
func checkPDConnector(p *pass) {
	var pd []*server
	for _, s := range p.Servers {
		if pdServer(s) {
			pd = append(pd, s)
		}
	}
	if len(pd) == 0 {
		return
	}
	for _, s := range p.Servers {
		if p.poolOf(s) != nil {
			continue // a disaggregated --spec's pool: VL407 names the spec's connector
		}
		if s.KV().Given || s.Inv.Frontend != "" || s.Headless() || encoderOnly(s) || !sameModelAsAny(s, pd) || cannotCoexist(p, s, pd) || alternativeToAll(s, pd) || otherMDSection(p, s, pd) {
			continue
		}
		p.ReportAt(s.Inv, s.Inv.Pos, "give every prefill and decode engine the same --kv-transfer-config connector",
			"this engine serves the model of the P/D engines (%s:%d) but has no --kv-transfer-config: requests routed to it with kv_transfer_params transfer no KV (\"no KVConnector found\") and it recomputes the prompt",
			pd[0].Inv.File, pd[0].Inv.Pos.Line)
	}
	roles := map[string]int{}
	for _, s := range pd {
		roles[s.KV().Role]++
	}
	if roles[vllm.KVRoleBoth] > 0 || p.pools != nil {
		return // with a disaggregated --spec, VL408 names the missing pool
	}
	for _, pair := range [][2]string{{vllm.KVRoleProducer, vllm.KVRoleConsumer}, {vllm.KVRoleConsumer, vllm.KVRoleProducer}} {
		if roles[pair[0]] > 0 && roles[pair[1]] == 0 {
			s := firstWithRole(pd, pair[0])
			p.ReportAtSeverity(s.Inv, s.KV().pos("kv_role"), diag.Info, "lint the prefill and decode launches together",
				"%s engines but no %s in the files linted: the other side of the P/D deployment was not checked", pair[0], pair[1])
		}
	}
}

// ecProducerRole matches "ec_role": "ec_producer" in a config whose JSON
// did not decode (a value cut by an unresolved expansion).
var ecProducerRole = regexp.MustCompile(`"ec_role"\s*:\s*"ec_producer"`)

// encoderOnly reports an engine whose --ec-transfer-config makes it the
// encoder of an encode/prefill/decode (EPD) deployment, ec_role
// "ec_producer": it runs the multimodal encoder and hands the embeddings
// on, and is never a prefill or decode leg. vLLM's own EPD example starts
// it with --ec-transfer-config only (v0.11.1, the first release with
// vllm/config/ec_transfer.py, and v0.13.0
// examples/online_serving/disaggregated_encoder/disagg_1e1p1d_example.sh:95-110),
// and its proxy sends it no kv_transfer_params (v0.13.0
// disagg_epd_proxy.py:105-114: model, messages, max_tokens 1). "ec_both"
// (in vllm/config/ec_transfer.py at v0.17.0, absent at v0.16.0) also
// consumes, so such an engine may be a P/D leg and is not skipped.
func encoderOnly(s *server) bool {
	role := ""
	for _, f := range s.Flags() {
		if f.Name != "ec-transfer-config" || f.OtherRelease || f.Value == nil {
			continue
		}
		if sp := f.Spelling(); strings.HasSuffix(sp, ".ec_role") {
			role = strings.TrimSpace(f.Value.Text) // dotted key, later flags win
			continue
		}
		if obj, ok := decodeKVJSON(f.Value.Text); ok {
			if r, ok := obj["ec_role"].(string); ok {
				role = r
			}
		} else if ecProducerRole.MatchString(f.Value.Text) {
			role = "ec_producer"
		}
	}
	return role == "ec_producer"
}

// otherMDSection reports an engine of a Markdown document that lies
// outside every section holding a whole P/D deployment of the document's
// engines (a producer and a consumer, or kv_both): a recipe shows its
// aggregated and its disaggregated setups in sections of their own, and
// the engine is another setup, not a member the P/D deployment routes to
// (QA41: a Kimi-K2.5 recipe's single-node commands under "NVIDIA NVFP4"
// and "Docker" were reported against the engines of its "Disaggregated
// prefill/decode" section). Each P/D engine's deployment is the innermost
// section around it that holds a whole one: vllm-ascend's Qwen3.5-397B
// tutorial has one P/D section for A3 and one for 950DT, whose common
// section also held the single-node setups (3 false warnings). When a
// side is missing, the engine may be meant as it, and VL224 still reports
// it.
func otherMDSection(p *pass, s *server, pd []*server) bool {
	o := p.outlines[s.Inv.File]
	if o == nil {
		return false
	}
	for _, e := range pd {
		if e.Inv.File != s.Inv.File {
			return false
		}
	}
	at := o.SectionAt(s.Inv.Pos.Line)
	found := false
	for _, e := range pd {
		sec := pdSection(o, e, pd)
		if sec < 0 {
			return false // only the whole document holds a whole deployment
		}
		if o.Within(at, sec) {
			return false
		}
		found = true
	}
	return found
}

// pdSection is the innermost section around P/D engine e that holds a
// whole P/D deployment of the engines pd (a producer and a consumer, or
// kv_both); -1 when only the whole document does.
func pdSection(o *launch.MarkdownOutline, e *server, pd []*server) int {
	whole := func(sec int) bool {
		roles := map[string]bool{}
		for _, x := range pd {
			if x.Inv.File == e.Inv.File && o.Within(o.SectionAt(x.Inv.Pos.Line), sec) {
				roles[x.KV().Role] = true
			}
		}
		return roles[vllm.KVRoleBoth] || (roles[vllm.KVRoleProducer] && roles[vllm.KVRoleConsumer])
	}
	sec := o.SectionAt(e.Inv.Pos.Line)
	for sec >= 0 && !whole(sec) {
		sec = o.Parent(sec)
	}
	return sec
}

// mdAlternatives reports two P/D engines of one Markdown document that
// belong to different P/D deployments of it, each in a section of its own
// (the "A3 series" and "A3 series with dspark" tabs of vllm-ascend's
// DeepSeek-V4-Flash tutorial): never started together.
func mdAlternatives(p *pass, a, b *server) bool {
	o := p.outlines[a.Inv.File]
	if o == nil || a.Inv.File != b.Inv.File {
		return false
	}
	var pd []*server
	for _, s := range p.Servers {
		if pdServer(s) {
			pd = append(pd, s)
		}
	}
	sa, sb := pdSection(o, a, pd), pdSection(o, b, pd)
	return sa >= 0 && sb >= 0 && !o.Within(sa, sb) && !o.Within(sb, sa)
}

// cannotCoexist reports an engine that claims a GPU of a P/D engine on the
// same host with memory budgets that do not fit together: the two cannot
// run at once, so the engine is another setup the file shows (a document's
// baseline before its P/D section), not a member of the P/D deployment.
// When they do run at once, VL228 reports the GPU.
func cannotCoexist(p *pass, s *server, pd []*server) bool {
	devs, ok := hostDevices(s)
	if !ok {
		return false
	}
	for _, o := range pd {
		od, ok := hostDevices(o)
		if !ok || !p.gpuHostShared(o, s) || firstSharedDevice(od, devs) == "" {
			continue
		}
		ua, oka := memoryUtilization(s)
		ub, okb := memoryUtilization(o)
		if oka && okb && ua+ub > 1 {
			return true
		}
	}
	return false
}

// sameModelAsAny reports a server whose model text equals a P/D engine's.
func sameModelAsAny(s *server, pd []*server) bool {
	if s.Model == nil || !s.Model.Known {
		return false
	}
	for _, o := range pd {
		if o.Model != nil && o.Model.Text == s.Model.Text {
			return true
		}
	}
	return false
}

func firstWithRole(ss []*server, role string) *server {
	for _, s := range ss {
		if s.KV().Role == role {
			return s
		}
	}
	return ss[0]
}

// checkPDTPRatio reports prefill and decode TP sizes the pools' KV
// connector cannot pair (VL225), by the one rule validate and plan use
// (vllm.PDTPPairing): NIXL's (neither size divides the other, or prefill TP
// above decode TP before the release that supports it) and
// MooncakeConnector's (equal sizes only before 0.19.0; from it, one size
// dividing the other and, for a model lint knows, a decode TP within the KV
// heads). A producer and a consumer are paired when they serve one model
// through the same connector.
func checkPDTPRatio(p *pass) {
	var prods, cons []*server
	for _, s := range p.Servers {
		if _, ok := tpConnector(s); !ok {
			continue
		}
		switch s.KV().Role {
		case vllm.KVRoleProducer:
			prods = append(prods, s)
		case vllm.KVRoleConsumer:
			cons = append(cons, s)
		}
	}
	for _, d := range cons {
		dt := d.TP()
		if !dt.Known {
			continue
		}
		conn, _ := tpConnector(d)
		for _, pr := range prods {
			pt := pr.TP()
			if pc, _ := tpConnector(pr); pc != conn || !pt.Known || pt.N == dt.N || !sameModelAsAny(d, []*server{pr}) {
				continue
			}
			heads, mla := modelKVHeads(d)
			pair := vllm.PDTPPairing(conn, d.Rel.Version, pt.N, dt.N, heads, mla)
			if pair.Mooncake && reportMooncakeTP(p, d, pr, pt.N, dt.N, heads, pair.Moon) ||
				!pair.Mooncake && reportNixlTP(p, d, pr, pt.N, dt.N, pair.Nixl) {
				break
			}
		}
	}
}

// tpConnector names the connector whose TP pairing rule VL225 applies to
// s: NixlConnector (from its first release) or MooncakeConnector's V1
// connector (from its first V1 release; the V0 connector's handling of
// unequal sizes was not read), directly or as a MultiConnector child.
func tpConnector(s *server) (string, bool) {
	k := s.KV()
	for _, n := range append([]string{k.Connector}, multiChildren(k)...) {
		switch {
		case vllm.IsNixl(n) && s.Rel.Version.AtLeast(nixlSince):
			return "NixlConnector", true
		case isMooncake(n) && s.Rel.Version.AtLeast(mooncakeV1Since):
			return vllm.MooncakeConnectorName, true
		}
	}
	return "", false
}

// isMooncake reports MooncakeConnector (not MooncakeStoreConnector).
func isMooncake(name string) bool {
	c, ok := vllm.KVConnectorNamed(name)
	return ok && c.Name == vllm.MooncakeConnectorName
}

// mooncakeV1Since is the first release of the V1 MooncakeConnector (the
// connector table's last span; its earlier span is the V0 connector).
var mooncakeV1Since = func() vllm.Version {
	c, _ := vllm.KVConnector(vllm.MooncakeConnectorName)
	return c.Spans[len(c.Spans)-1].Since
}()

// modelKVHeads is the served model's KV heads and MLA flag from the
// catalog; 0 heads when lint does not know the model, so a rule that needs
// them (MooncakeConnector's decode TP above the KV heads) does not apply.
func modelKVHeads(s *server) (int, bool) {
	if m := familyModel(s); m != nil {
		return m.NumKVHeads, m.IsMLA()
	}
	return 0, false
}

// reportNixlTP reports NIXL's pairing of prefill TP pt (server pr) with
// decode TP dt (server d); true when it reported.
func reportNixlTP(p *pass, d, pr *server, pt, dt int, pair vllm.TPPairing) bool {
	at := d.TP().At
	if pair.NotDivisible {
		p.ReportAt(d.Inv, at, "make one TP size a multiple of the other",
			"decode TP %d and prefill TP %d (%s:%d): neither divides the other, and NIXL requires it (\"is not divisible by remote tensor parallel size\")", dt, pt, pr.Inv.File, pr.Inv.Pos.Line)
		return true
	}
	if !pair.PrefillLarger {
		return false
	}
	msg := fmt.Sprintf("prefill TP %d (%s:%d) is larger than decode TP %d: vLLM %s's NIXL connector %s", pt, pr.Inv.File, pr.Inv.Pos.Line, dt, d.Rel, vllm.NixlPrefillLargerFailure(d.Rel.Version, pt, dt))
	hint := "use decode TP >= prefill TP, or a release with " + vllm.NixlTPPairingFix
	if pair.Pairs == vllm.Absent {
		p.ReportVersioned(d, at, hint, "%s", msg)
	} else {
		p.ReportAtSeverity(d.Inv, at, diag.Info, hint, "%s (the release that lifts it is inferred, not confirmed)", msg)
	}
	return true
}

// reportMooncakeTP reports MooncakeConnector's refusal to pair prefill TP
// pt (server pr) with decode TP dt (server d); true when it reported.
func reportMooncakeTP(p *pass, d, pr *server, pt, dt, heads int, m vllm.MooncakeTP) bool {
	if m.Pairs == vllm.Present {
		return false
	}
	hint := "use one TP size in both pools, or vLLM >= " + vllm.MooncakeHeteroTPFrom() + " (#36869)"
	switch {
	case !m.Hetero:
	case max(pt, dt)%min(pt, dt) != 0:
		hint = "make one TP size a multiple of the other"
	default:
		hint = fmt.Sprintf("keep decode TP at or below the model's %d KV heads", heads)
	}
	p.ReportVersioned(d, d.TP().At, hint, "prefill TP %d (%s:%d) and decode TP %d under MooncakeConnector: %s (%s)",
		pt, pr.Inv.File, pr.Inv.Pos.Line, dt, m.Why, m.Source)
	return true
}
