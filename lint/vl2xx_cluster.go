package lint

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
	"mvdan.cc/sh/v3/syntax"
)

// checkPortConflict reports two servers started together on one host with
// the same API port (VL212).
func checkPortConflict(p *pass) {
	type key struct{ file, host, port string }
	seen := map[key]*server{}
	for _, s := range p.Servers {
		if s.Headless() || s.Inv.Role != "" || s.Inv.Frontend != "" {
			continue // a wrapper's workers serve no HTTP port of their own
		}
		port := "8000"
		if v, ok := s.Str("port"); ok {
			if !v.Known {
				continue
			}
			port = v.Text
		}
		k := key{p.hostScope(s), s.Inv.Host, port}
		if prev, ok := seen[k]; ok && runsAlongside(prev, s) {
			at := s.Inv.Pos
			if v, ok := s.Str("port"); ok {
				at = v.Pos
			}
			p.ReportAt(s.Inv, at, "give each server on a host its own --port", "port %s is already used by the server started at %s on the same host", port, startedAt(prev, s))
		}
		seen[k] = s
	}
	checkRPCPortConflict(p)
	for _, s := range p.Servers {
		checkOwnPorts(p, s)
	}
	checkRouterPorts(p)
}

// checkRouterPorts reports a `vllm-router` command whose ports meet: its
// --port and --prometheus-port, which vllm-project/router always binds
// (defaults 30000 and 29000, vllm.RouterMetricsSource), one and the same,
// or either of them a vLLM server's API port on the same host while the
// server runs (VL212, QA left 39 #2). The router is placed on its host as
// routerPlace reads it (its host directive, its row of the bundle's hosts
// table, or its --host), so a router.sh and a rank's script of the same
// node are compared; production-stack's router binds its --port alone
// (srcPStackRouter).
func checkRouterPorts(p *pass) {
	apis := p.apiHosts()
	for _, r := range p.routerCmds() {
		port, metrics := r.port, r.metrics
		if port.text != "" && port.text == metrics.text {
			p.Report(r.sc.Name(), r.sc.Pos(metrics.at.Pos()), "give --prometheus-port a port of its own",
				"vllm-router's --port %s is also its --prometheus-port: it binds its Prometheus metrics listener there too (%s)", port.text, vllm.RouterMetricsSource)
			continue
		}
		for _, rp := range []struct {
			routerPort
			what string
		}{{port, "as its --port"}, {metrics, "for its Prometheus metrics (--prometheus-port, always served)"}} {
			if rp.text == "" {
				continue
			}
			for _, a := range apis {
				if a.port != rp.text || !r.sameHost(a) || (a.s.Inv.File == r.sc.Name() && !a.s.Inv.Background) {
					continue
				}
				p.Report(r.sc.Name(), r.sc.Pos(rp.at.Pos()), "give the router and each server on a host their own ports",
					"vllm-router binds port %s %s: it is the API port of the server started at %s on the same host", rp.text, rp.what, startedIn(a.s, r.sc.Name()))
				break
			}
		}
	}
}

// routerPort is one port a vllm-router command binds: its value and the
// word that gives it (the command's name when the default applies).
type routerPort struct {
	text string
	at   *syntax.Word
}

// routerFlag reads --name VALUE or --name=VALUE from a vllm-router
// command's words; the default when absent, "" when not a literal.
func routerFlag(args []*syntax.Word, name, def string, cmd *syntax.Word) routerPort {
	out := routerPort{def, cmd}
	for i, w := range args {
		lit := wordText(w)
		switch {
		case lit == name && i+1 < len(args):
			out = routerPort{wordText(args[i+1]), args[i+1]}
		case strings.HasPrefix(lit, name+"="):
			out = routerPort{strings.TrimPrefix(lit, name+"="), w}
		}
	}
	return out
}

// checkOwnPorts reports an API port that one server also uses for
// something else: VLLM_PORT, vLLM's internal base port (vLLM #5867: "--port
// $VLLM_PORT" fails with "address already in use"), or the DP RPC port
// (vLLM #20119: clients get "Received HTTP/0.9").
func checkOwnPorts(p *pass, s *server) {
	api, ok := s.Str("port")
	if !ok || s.Headless() || s.Inv.Frontend != "" {
		return
	}
	if e, set := s.Inv.LookupEnv("VLLM_PORT"); (set && e.Value.Known && api.Known && e.Value.Text == api.Text) || usesVar(api, "VLLM_PORT") {
		p.ReportAt(s.Inv, s.Flag("port").At.Pos, "VLLM_PORT is vLLM's internal base port, not the API port: give --port its own value (and leave VLLM_PORT unset unless a firewall needs it)",
			"--port %s is the value of VLLM_PORT, from which vLLM allocates its internal ports: the API server and those sockets collide (\"address already in use\")", api.Text)
	}
	if rpc, ok := s.Str("data-parallel-rpc-port"); ok && rpc.Known && api.Known && rpc.Text == api.Text {
		p.ReportAt(s.Inv, rpc.Pos, "use different ports for the API and the DP RPC",
			"--data-parallel-rpc-port %s is also this server's API port: the DP handshake and HTTP share the socket (clients get \"Received HTTP/0.9 when not allowed\")", rpc.Text)
	}
}

// usesVar reports a value that is exactly one variable's expansion.
func usesVar(v launch.Value, name string) bool {
	return !v.Known && len(v.Unresolved) == 1 && v.Unresolved[0] == name && (v.Text == "$"+name || v.Text == "${"+name+"}")
}

// checkRPCPortConflict reports two servers on one host in a release whose
// OpenAI frontend reaches its engine over a fixed TCP port (0.5.4: 5570,
// VLLM_RPC_PORT): the second fails with "ZMQError: Address already in use"
// unless each sets its own VLLM_RPC_PORT or passes
// --disable-frontend-multiprocessing (vllm.FrontendRPC).
func checkRPCPortConflict(p *pass) {
	type key struct{ file, host, port string }
	seen := map[key]*server{}
	for _, s := range p.Servers {
		rpc := s.Rel.FrontendRPC()
		if rpc.FixedTCPPort == 0 || s.Has("disable-frontend-multiprocessing") || s.Inv.Role != "" {
			continue
		}
		port := fmt.Sprint(rpc.FixedTCPPort)
		if e, ok := s.Inv.LookupEnv(rpc.PortEnv); ok {
			if !e.Value.Known {
				continue
			}
			port = e.Value.Text
		}
		k := key{p.hostScope(s), s.Inv.Host, port}
		if prev, ok := seen[k]; ok && runsAlongside(prev, s) {
			p.ReportAt(s.Inv, s.Inv.Pos, "give each server its own "+rpc.PortEnv+" (or pass --disable-frontend-multiprocessing)",
				"vLLM %s's frontend talks to its engine on TCP port %s (%s), already taken by the server started at %s: this one fails with \"ZMQError: Address already in use\"", s.Rel, port, rpc.PortEnv, startedAt(prev, s))
		}
		seen[k] = s
	}
}

// hostScope is what the port rules take as one host: the host a file's
// host directive names (several files, one host), else the file.
func (p *pass) hostScope(s *server) string {
	if h, ok := p.hosts[s.Inv.File]; ok {
		return "host " + h
	}
	return "file " + s.Inv.File
}

// runsAlongside reports whether prev still runs when s starts: prev was
// started in the background, or by another file on the same host (each
// file a server of its own); never when one run of the script starts only
// one of them (launch.Exclusive: different branches of an if or case), nor
// when they are alternatives a document lays out (mdSetups).
func runsAlongside(prev, s *server) bool {
	return (prev.Inv.Background || prev.Inv.File != s.Inv.File) && !launch.Exclusive(prev.Inv, s.Inv) && !mdSetups(prev, s)
}

// mdSetups reports two servers of one Markdown document that
// tagMarkdownSections put in different setups (sections, tabs, captions):
// a reader runs one of them, not both (vllm-ascend's MiniMax-M3 tutorial:
// the "BF16 Deployment" and "W8A8 Deployment" tabs each start a server on
// port 11223 with `&`; VL212 and VL229 errors between them before). A
// prefill and a decode engine (each with a KV connector) are the one P/D
// deployment's, tagged apart all the same: they do run together.
func mdSetups(a, b *server) bool {
	if a.Inv.File != b.Inv.File || a.Inv.Deployment == b.Inv.Deployment {
		return false
	}
	if !strings.HasPrefix(a.Inv.Deployment, "md ") && !strings.HasPrefix(b.Inv.Deployment, "md ") {
		return false
	}
	return !(a.KV().Given && b.KV().Given)
}

// startedAt locates prev for a finding on s: "line N" in s's file, else
// "FILE:N".
func startedAt(prev, s *server) string { return startedIn(prev, s.Inv.File) }

// startedIn locates prev for a finding in file.
func startedIn(prev *server, file string) string {
	if prev.Inv.File == file {
		return fmt.Sprintf("line %d", prev.Inv.Pos.Line)
	}
	return fmt.Sprintf("%s:%d", prev.Inv.File, prev.Inv.Pos.Line)
}

// checkNNodes reports inconsistent --nnodes/--node-rank/--master-addr (VL213).
func checkNNodes(p *pass) {
	for _, g := range p.Groups {
		var nodes []*server
		for _, s := range g {
			if n := s.NNodes(); n.Known && n.N > 1 {
				nodes = append(nodes, s)
			}
		}
		ranks := map[int]*server{}
		anyHeadless := false
		for _, s := range nodes {
			anyHeadless = anyHeadless || s.Headless()
		}
		for _, s := range nodes {
			n, r := s.NNodes(), s.Int("node-rank", 0)
			if v, ok := s.Str("node-rank"); ok && !v.Known && !anyHeadless && !unknownWord(s.Inv.Args) {
				// One command for every node, its rank read at run time
				// ($NODE_RANK, $SLURM_PROCID), and no node of the
				// deployment passes --headless: the nodes of rank > 0 run
				// it without (vllm-project/speculators' multi-node guide,
				// PR #1046, whose review flagged it). Such a follower starts
				// its own engine core, whose KV-cache set-up trips the mp
				// executor's leader-only collective_rpc ("collective_rpc
				// should not be called on follower node",
				// vllm/v1/executor/multiproc_executor.py; reported on 0.20.1,
				// a 0.21.1 dev build and 0.23.0 in public deployment notes,
				// search index ids 55254852799, 62016233383, 66858906362).
				// A warning: a patched runtime may start it anyway.
				followers := fmt.Sprintf("the nodes of rank 1..%d run", n.N-1)
				if n.N == 2 {
					followers = "the node of rank 1 runs"
				}
				p.ReportAtSeverity(s.Inv, s.Flag("node-rank").At.Pos, diag.Warning, "add --headless on the nodes whose rank is > 0 (e.g. `[ \"$NODE_RANK\" != 0 ] && args+=(--headless)`)",
					"--node-rank is %s, read when the command runs: with --nnodes %d %s this command without --headless, which vLLM needs there (its engine core asserts \"collective_rpc should not be called on follower node\")", runTimeText(v), n.N, followers)
			}
			if !r.Known {
				continue
			}
			if r.N >= n.N || r.N < 0 {
				p.ReportAt(s.Inv, r.At, "", "--node-rank %d is outside 0..%d for --nnodes %d", r.N, n.N-1, n.N)
			} else if prev, dup := ranks[r.N]; dup {
				p.ReportAt(s.Inv, r.At, "give each node its own --node-rank", "--node-rank %d is also used by %s", r.N, prev.Inv.Node)
			}
			ranks[r.N] = s
			if r.N > 0 && !s.Headless() {
				p.ReportAt(s.Inv, r.At, "add --headless on nodes with --node-rank > 0", "--node-rank %d without --headless", r.N)
			}
			if a, b := settingText(nodes[0], "master-addr"), settingText(s, "master-addr"); a != b && !bothUnresolved(nodes[0], s, "master-addr") {
				p.ReportAt(s.Inv, s.Inv.Pos, "use node 0's address everywhere", "--master-addr %s differs from %s on %s", b, a, nodes[0].Inv.Node)
			}
		}
	}
}

// runTimeText names what a value read at run time comes from: its
// variables ("$NODE_RANK"), else its text.
func runTimeText(v launch.Value) string {
	if len(v.Unresolved) == 0 {
		return v.Text
	}
	names := make([]string, len(v.Unresolved))
	for i, n := range v.Unresolved {
		names[i] = n
		if !strings.HasPrefix(n, "$") && !strings.Contains(n, "=") { // not NAME=$(...)
			names[i] = "$" + n
		}
	}
	return strings.Join(names, ", ")
}

// unknownWord reports an argument read at run time that stands as a word
// of its own, not after a flag that takes it: it may be any flag
// (`${HEADLESS}`, set to --headless on the nodes of rank > 0 by a branch
// the linter cannot decide).
func unknownWord(args []launch.Value) bool {
	for i, a := range args {
		if a.Known || i == 0 {
			continue
		}
		prev := args[i-1]
		if !prev.Known || !strings.HasPrefix(prev.Text, "--") || strings.Contains(prev.Text, "=") {
			return true
		}
	}
	return false
}

// bothUnresolved: two values the script computes at run time (the pod IP
// on an LWS leader, the leader's resolved name on a worker) may well be
// equal; only known values can be said to differ.
func bothUnresolved(a, b *server, flag string) bool {
	va, oka := a.Str(flag)
	vb, okb := b.Str(flag)
	return oka && okb && !va.Known && !vb.Known
}

// checkAPIServerCount notes a multi-node primary relying on the automatic
// API-server count (in newer releases one process per DP rank: the global
// DP size, or the node's local size with an explicit start rank, as
// vllm.Release.DefaultAPIServers says) (VL215).
func checkAPIServerCount(p *pass) {
	const hint = "set --api-server-count explicitly (the EP docs use 8)"
	for _, g := range p.Groups {
		if !multiNode(g) {
			continue
		}
		for _, s := range dpNodes(g) {
			if s.Headless() || s.Has("data-parallel-hybrid-lb") || s.multiPortLB() || s.Flag("api-server-count") != nil || s.Flag("config") != nil || !s.Rel.Defaults().APIServerCountAuto || s.Inv.Frontend != "" {
				continue
			}
			n, ok := s.dpNode()
			if !ok {
				p.ReportAt(s.Inv, s.Inv.Pos, hint, "vLLM %s starts one API server per DP rank (of this node or of the deployment, from data-parallel sizes the script computes at run time) when --api-server-count is not given", s.Rel)
				continue
			}
			count, why := s.Rel.DefaultAPIServers(n)
			if count <= 1 {
				continue // one API server, as with an explicit count of 1
			}
			p.ReportAt(s.Inv, s.Inv.Pos, hint, "vLLM %s starts %d API servers on this node when --api-server-count is not given (%s)", s.Rel, count, why)
		}
	}
}

// checkVersions reports nodes of one deployment running different vLLM
// versions, as their image tags say (VL216).
func checkVersions(p *pass) {
	for _, g := range p.Groups {
		for _, s := range g[1:] {
			a, b := g[0].Inv.ImageVersion, s.Inv.ImageVersion
			if a != "" && b != "" && a != b {
				p.ReportAt(s.Inv, s.Inv.Pos, "run the same image on every node", "image %s (vLLM %s) differs from vLLM %s on %s", s.Inv.Image, b, a, g[0].Inv.Node)
			}
		}
	}
}

// checkRayHeads reports several `ray start --head` for one cluster (VL214):
// one deployment (independent replicas run a cluster each).
func checkRayHeads(p *pass) {
	first := map[string]*launch.Invocation{}
	for _, h := range p.Rays {
		if h.Kind != launch.KindRayHead {
			continue
		}
		f, ok := first[h.Deployment]
		if !ok {
			first[h.Deployment] = h
			continue
		}
		p.ReportAt(h, h.Pos, "start the head once; other nodes run `ray start --address=<head>:6379`", "another `ray start --head` (first at %s)", fmt.Sprintf("%s:%d", f.File, f.Pos.Line))
	}
}
