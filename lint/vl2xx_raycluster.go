package lint

import (
	"fmt"
	"net"
	"path"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkRayClusterGPUs reports a Ray-placed engine whose world size the Ray
// cluster cannot hold (VL231): vLLM's Ray executor asks for a placement
// group of TP x PP one-GPU bundles per engine (TP x PP x DP with the Ray
// DP backend, TP x PP x local DP ranks with the mp one), which Ray never
// forms on fewer GPUs: the engine waits, then fails (vllm.SrcRayPlacementGroup).
// The cluster's GPUs come from the spec's nodes (of the server's replica),
// else from a vlaunch bundle's `hosts` table; the scripts' `ray start`
// counts are a lower bound only (rayClusterGPUs).
func checkRayClusterGPUs(p *pass) {
	for _, s := range p.Servers {
		if !p.rayEngine(s) {
			continue
		}
		tp, pp := s.TP(), s.PP()
		if !tp.Known || !pp.Known {
			continue
		}
		world, what := tp.N*pp.N, "TP x PP"
		if s.RayDP() {
			dp := s.DP()
			if !dp.Known {
				continue
			}
			world, what = world*dp.N, "TP x PP x DP"
		} else if dpl := s.DPL(); dpl.Known && dpl.N > 1 {
			world, what = world*dpl.N, "TP x PP x local DP ranks"
		} else if !dpl.Known {
			continue
		}
		have, src, ok := p.rayClusterGPUs(s)
		if !ok || world <= have {
			continue
		}
		p.ReportAt(s.Inv, tp.At, "lower --tensor-parallel-size / --pipeline-parallel-size to the cluster's GPUs, or join more GPU nodes to the Ray cluster",
			"%s = %d needs %d GPUs from the Ray cluster, which has %d (%s): vLLM's placement group of %d GPU bundles never forms; the engine waits %d s, then fails (\"Cannot provide a placement group\")",
			what, world, world, have, src, world, vllm.RayPlacementGroupWaitSeconds)
	}
}

// rayClusterGPUs is the GPU count of the Ray cluster s runs on: the spec's
// nodes (of s's replica), else the Ray nodes of the bundle's `hosts` table
// beside s's script; ok is false when neither says.
func (p *pass) rayClusterGPUs(s *server) (n int, src string, ok bool) {
	if p.Spec != nil && len(p.Spec.Hardware.Nodes) > 0 && len(p.pools) == 0 {
		nodes := p.Spec.Hardware.Nodes
		per, heads := specReplicaNodes(p)
		start := 0
		if len(heads) > 0 {
			start = heads[0]
		}
		if i := p.specNodeFor(s); i >= 0 {
			for _, h := range heads {
				if h <= i {
					start = h
				}
			}
		}
		end := start + per
		if per <= 0 || end > len(nodes) {
			end = len(nodes)
		}
		for _, node := range nodes[start:end] {
			n += node.GPUs
		}
		return n, fmt.Sprintf("%d GPUs on %d nodes of %s", n, end-start, p.specWhat()), n > 0
	}
	// A vlaunch bundle's `hosts` table lists each node once with its GPUs.
	// The scripts' own counts (ray start --num-gpus, CUDA_VISIBLE_DEVICES)
	// give a lower bound only: one worker script is commonly run on several
	// nodes (corpus vllm-44878's worker.sh "on each of the three other
	// nodes"), so they are not used.
	if n, ok := p.bundleRayGPUs(s); ok {
		return n, fmt.Sprintf("the Ray nodes of the bundle's hosts table, %d GPUs", n), true
	}
	return 0, "", false
}

// checkRayHeadAddress reports a `ray start --address` that names another
// address than the head's (VL232): the head registers with its
// --node-ip-address (else the VLLM_HOST_IP it runs with, else the spec's
// first node of the replica); a worker joining elsewhere never joins this
// cluster, and the engine's placement group waits for its GPUs. Only IP
// literals are compared: a name may resolve to the head.
func checkRayHeadAddress(p *pass) {
	heads := map[string][]*launch.Invocation{}
	for _, r := range p.Rays {
		if r.Kind == launch.KindRayHead {
			heads[r.Deployment] = append(heads[r.Deployment], r)
		}
	}
	for _, w := range p.Rays {
		if w.Kind != launch.KindRayWorker || len(heads[w.Deployment]) != 1 {
			continue // no head in sight, or several (VL214)
		}
		h := heads[w.Deployment][0]
		hostIP, from, ok := p.rayHeadIP(h)
		if !ok {
			continue
		}
		addr, ok := rayAddress(w)
		if !ok || !addr.Known {
			continue
		}
		host, port := splitHostPort(addr.Text)
		ip := net.ParseIP(host)
		if ip == nil {
			continue
		}
		hp := rayHeadPort(h)
		join := fmt.Sprintf("%s:%d", hostIP, hp)
		if hp == 0 {
			join = hostIP.String()
		}
		switch {
		case !ip.Equal(hostIP):
			p.ReportAt(w, addr.Pos, "join the head's address: ray start --address="+join,
				"this worker joins a Ray head at %s, but the head started at %s:%d registers as %s (%s): unless %s is another address of the head's host, the worker joins no cluster and vLLM's placement group waits for its GPUs",
				host, h.File, h.Pos.Line, hostIP, from, host)
		case port > 0 && hp > 0 && port != hp:
			p.ReportAt(w, addr.Pos, "join the head's port: ray start --address="+join,
				"this worker joins %s:%d, but the head started at %s:%d listens on port %d", host, port, h.File, h.Pos.Line, hp)
		}
	}
}

// rayHeadIP is the address a Ray head registers with: its literal
// --node-ip-address, else its literal VLLM_HOST_IP, else the spec's head
// node when the spec has one replica.
func (p *pass) rayHeadIP(h *launch.Invocation) (net.IP, string, bool) {
	if v, ok := rayNodeIP(h); ok {
		if ip := net.ParseIP(strings.TrimSpace(v.Text)); v.Known && ip != nil {
			return ip, "its --node-ip-address", true
		}
		return nil, "", false
	}
	if e, ok := h.LookupEnv("VLLM_HOST_IP"); ok {
		if ip := net.ParseIP(strings.TrimSpace(e.Value.Text)); e.Value.Known && ip != nil {
			return ip, "its VLLM_HOST_IP", true
		}
		return nil, "", false
	}
	if p.Spec != nil && len(p.Spec.Hardware.Nodes) > 0 {
		if _, hs := specReplicaNodes(p); len(hs) == 1 {
			n := p.Spec.Hardware.Nodes[hs[0]]
			if ip := net.ParseIP(n.Address); ip != nil {
				return ip, "the address of " + p.specWhat() + "'s head node " + n.Name, true
			}
		}
	}
	return nil, "", false
}

// rayAddress reads `ray start --address X` (or --address=X).
func rayAddress(r *launch.Invocation) (launch.Value, bool) {
	for i, a := range r.Args {
		if v, ok := strings.CutPrefix(a.Text, "--address="); ok {
			return a.Slice(len(a.Text)-len(v), len(a.Text)), true
		}
		if a.Text == "--address" && i+1 < len(r.Args) {
			return r.Args[i+1], true
		}
	}
	return launch.Value{}, false
}

// rayDefaultPort is the GCS port of `ray start --head` without --port
// (https://docs.ray.io/en/latest/cluster/cli.html, ray start: "--port: the port of the head ray process. If
// not provided, defaults to 6379").
const rayDefaultPort = 6379

// rayHeadPort is the head's literal --port, else Ray's default.
func rayHeadPort(h *launch.Invocation) int {
	for i, a := range h.Args {
		v, ok := strings.CutPrefix(a.Text, "--port=")
		if !ok && a.Text == "--port" && i+1 < len(h.Args) {
			v, ok = h.Args[i+1].Text, h.Args[i+1].Known
		}
		if ok {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
				return n
			}
			return 0
		}
	}
	return rayDefaultPort
}

// splitHostPort splits "host:port" (port 0 when absent or not a number).
func splitHostPort(s string) (string, int) {
	s = strings.Trim(strings.TrimSpace(s), `"'`)
	if h, pt, err := net.SplitHostPort(s); err == nil {
		n, _ := strconv.Atoi(pt)
		return h, n
	}
	return s, 0
}

// bundleNode is one row of a vlaunch bundle's `hosts` table
// (templates/hosts.tmpl): node, address, gpus[:devices], role, dp_ranks,
// script[, replica].
type bundleNode struct {
	gpus         int
	role, script string
	replica      string
	// node and address are the row's first two columns: where the
	// script runs (the router's row places router.sh on its host).
	node, address string
}

// parseBundleHosts reads the `hosts` tables among the inputs, by directory:
// the generator writes one row per node and one script per node, so unlike
// the scripts' own counts (a worker script may run on several nodes) the
// table gives the cluster.
func parseBundleHosts(inputs []Input) map[string][]bundleNode {
	out := map[string][]bundleNode{}
	for _, in := range inputs {
		if path.Base(in.Name) != "hosts" {
			continue
		}
		var rows []bundleNode
		for _, line := range strings.Split(string(in.Data), "\n") {
			line = strings.TrimRight(line, "\r")
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			f := strings.Split(line, "\t")
			if len(f) < 6 {
				rows = nil
				break // not a bundle's table
			}
			g, _, _ := strings.Cut(f[2], ":")
			n, err := strconv.Atoi(g)
			if err != nil {
				rows = nil
				break
			}
			r := bundleNode{gpus: n, role: f[3], script: f[5], node: f[0], address: f[1]}
			if len(f) > 6 {
				r.replica = f[6]
			}
			rows = append(rows, r)
		}
		if len(rows) > 0 {
			out[path.Dir(in.Name)] = rows
		}
	}
	return out
}

// bundleRayGPUs is the GPUs of the Ray nodes of s's replica in the bundle
// table of s's directory, when s's script is one of its rows.
func (p *pass) bundleRayGPUs(s *server) (int, bool) {
	rows := p.bundleHosts[path.Dir(s.Inv.File)]
	base := path.Base(s.Inv.File)
	replica, found := "", false
	for _, r := range rows {
		if r.script == base {
			replica, found = r.replica, true
		}
	}
	if !found {
		return 0, false
	}
	n := 0
	for _, r := range rows {
		if r.replica == replica && (r.role == "ray-head" || r.role == "ray-worker") {
			n += r.gpus
		}
	}
	return n, n > 0
}
