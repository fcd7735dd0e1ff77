package lint

import (
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/lint/launch"
)

// checkSharedGPUs reports two engines that run at once on one host with
// the same GPU in their explicit device lists (CUDA_VISIBLE_DEVICES, or
// docker's --gpus "device=…", which names the host's GPUs) when their
// memory budgets together exceed the GPU (VL228): each vLLM engine takes
// --gpu-memory-utilization of the whole device, so the second fails to
// allocate its KV cache ("No available memory for the cache blocks") or
// runs out of memory. Engines on one host are those of one file, or of
// files whose host directives name one host (`vlaunch generate` writes one
// script per replica sharing a node); without a directive, files are taken
// to be different hosts.
func checkSharedGPUs(p *pass) {
	type claim struct {
		s    *server
		devs map[string]bool
	}
	var cs []claim
	for _, s := range p.Servers {
		if d, ok := hostDevices(s); ok {
			cs = append(cs, claim{s, d})
		}
	}
	for i, c := range cs {
		for _, prev := range cs[:i] {
			if !p.gpuHostShared(prev.s, c.s) || !runsAlongside(prev.s, c.s) {
				continue
			}
			dev := firstSharedDevice(prev.devs, c.devs)
			if dev == "" {
				continue
			}
			ua, oka := memoryUtilization(prev.s)
			ub, okb := memoryUtilization(c.s)
			if u := ua + ub; !oka || !okb || u <= 1 {
				continue // a budget the script computes at run time may well fit
			}
			u := ua + ub
			p.ReportAt(c.s.Inv, c.s.Inv.Pos, "give each engine on a host GPUs of its own (or budgets that add up to at most 1 with --gpu-memory-utilization)",
				"GPU %s is also given to the engine started at %s on the same host: their memory budgets add up to %.2f of the device, and the second fails to allocate its KV cache",
				dev, startedAt(prev.s, c.s), u)
			break
		}
	}
}

// gpuHostShared: a and b are on one host for their GPUs (same file, or
// host directives naming one host); unlike sameHost, overlapping lists do
// not make two files different hosts when their directives say otherwise.
func (p *pass) gpuHostShared(a, b *server) bool {
	if kube(a) || kube(b) || a.Inv.Host != b.Inv.Host || launch.Exclusive(a.Inv, b.Inv) {
		return false
	}
	if a.Inv.File == b.Inv.File {
		return !nodesApart(a, b)
	}
	ha, oka := p.hosts[a.Inv.File]
	hb, okb := p.hosts[b.Inv.File]
	return oka && okb && ha == hb
}

// nodesApart reports two engines of one file that say they are different
// nodes of one multi-node deployment: each hosts its own share of one DP
// group (the same --data-parallel-size, --data-parallel-size-local below
// it, different start ranks), or each has its own --node-rank of one
// --nnodes. A document lists node 0's and node 1's commands one after the
// other (vllm-ascend's MiniMax-M3 tutorial: "Run the following command on
// node 1:", both on NPUs 0-7; VL229 between them before).
func nodesApart(a, b *server) bool {
	if a.DP().Known && b.DP().Known && a.DP().N == b.DP().N && a.DP().N > 1 {
		la, lb := a.DPL(), b.DPL()
		ra, rb := a.StartRank(), b.StartRank()
		if la.Known && lb.Known && la.N < a.DP().N && lb.N < b.DP().N && ra.Known && rb.Known && ra.N != rb.N {
			return true
		}
	}
	na, nb := a.NNodes(), b.NNodes()
	ka, kb := a.Int("node-rank", 0), b.Int("node-rank", 0)
	return na.Known && nb.Known && na.N > 1 && na.N == nb.N && ka.Known && kb.Known && ka.N != kb.N
}

// hostDevices is the explicit list of host GPUs a server runs on: docker's
// --gpus device list for a container, narrowed by a CUDA_VISIBLE_DEVICES
// of indices inside it (the container's GPU k is the list's k-th; with
// --gpus all the host's GPU k, as vlaunch's docker bundle of P/D pools
// sharing a node writes it), CUDA_VISIBLE_DEVICES (or another platform's)
// for a process on the host; ok is false when nothing lists them.
func hostDevices(s *server) (map[string]bool, bool) {
	c := s.Inv.Container
	if c == nil {
		return visibleDevices(s)
	}
	if c.Runtime != "docker" || (c.HostDevices == nil && !c.AllGPUs) {
		return nil, false
	}
	vis, ok := visibleDevices(s)
	if c.AllGPUs {
		return vis, ok
	}
	for d := range vis {
		if _, err := strconv.Atoi(d); err != nil {
			ok = false // UUIDs: which of the list's GPUs is not worked out
		}
	}
	set := map[string]bool{}
	for k, d := range c.HostDevices {
		if !ok || vis[strconv.Itoa(k)] {
			set[d] = true
		}
	}
	return set, true
}

func firstSharedDevice(a, b map[string]bool) string {
	best := ""
	for d := range b {
		if a[d] && (best == "" || d < best) {
			best = d
		}
	}
	return best
}

// memoryUtilization is the server's --gpu-memory-utilization, else its
// release's default; ok is false when the flag is given a value the linter
// cannot read (one the script computes at run time, from the free memory
// say), which is not the default.
func memoryUtilization(s *server) (u float64, ok bool) {
	v, set := s.Str("gpu-memory-utilization")
	if !set {
		return s.Rel.Defaults().GPUMemoryUtilization, true
	}
	if !v.Known {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v.Text), 64)
	return f, err == nil
}
