package lint

import (
	"strings"

	"github.com/vlaunch/vlaunch/lint/launch"
)

// groupServers puts servers of one deployment together: same model, same
// global DP size, same disaggregation role and same manifest object.
// Servers with DP = 1 and no --nnodes stand alone.
func groupServers(servers []*server) [][]*server {
	index := map[string]int{}
	var groups [][]*server
	for _, s := range servers {
		key := groupKey(s)
		i, ok := index[key]
		if !ok || key == "" {
			i = len(groups)
			groups = append(groups, nil)
			if key != "" {
				index[key] = i
			}
		}
		groups[i] = append(groups[i], s)
	}
	var out [][]*server
	for _, g := range groups {
		for _, e := range splitByEndpoint(g) {
			out = append(out, splitInstances(e)...)
		}
	}
	return out
}

// splitByEndpoint separates DP groups that share the other keys but meet
// at different coordinators: servers belong together when they name the
// same --data-parallel-address or the same --data-parallel-rpc-port, a
// missing one matching anything (a prefill pool and a decode pool of one
// disaggregated deployment name both, and both differ). A server that
// differs in only one of the two stays in the group, where VL206 or VL207
// reports the slip — unless the servers at the two addresses cannot be one
// deployment (twoInstances): vllm-ascend's P/D tutorials start two prefill
// instances of DP 2 (ranks 0-1 each, at their own address) and a DP 32
// decode with launch_online_dp.py lines that share the default RPC port.
func splitByEndpoint(g []*server) [][]*server {
	if len(g) < 2 {
		return [][]*server{g}
	}
	parent := make([]int, len(g))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	members := func(i int) []*server {
		var out []*server
		for k := range g {
			if find(k) == find(i) {
				out = append(out, g[k])
			}
		}
		return out
	}
	endpoint := func(s *server, name string) string {
		if v, ok := s.Str(name); ok {
			return v.Text
		}
		return ""
	}
	// One known address is one coordinator: its servers belong together
	// (VL202/VL204 report what they disagree on).
	byAddr := map[string]int{}
	for i, s := range g {
		if a := endpoint(s, "data-parallel-address"); a != "" {
			if j, ok := byAddr[a]; ok {
				parent[find(i)] = find(j)
			} else {
				byAddr[a] = i
			}
		}
	}
	for i, s := range g {
		a, r := endpoint(s, "data-parallel-address"), endpoint(s, "data-parallel-rpc-port")
		for j := 0; j < i; j++ {
			b, q := endpoint(g[j], "data-parallel-address"), endpoint(g[j], "data-parallel-rpc-port")
			sameAddr := a == b || a == "" || b == ""
			samePort := r == q || r == "" || q == ""
			if !sameAddr && !samePort || find(i) == find(j) {
				continue
			}
			if !sameAddr && twoInstances(members(i), members(j)) {
				continue
			}
			parent[find(i)] = find(j)
		}
	}
	index := map[int]int{}
	var out [][]*server
	for i, s := range g {
		root := find(i)
		k, ok := index[root]
		if !ok {
			k = len(out)
			index[root] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], s)
	}
	return out
}

// twoInstances reports the servers of two coordinators (addresses) that
// cannot be the nodes of one DP deployment: they state different global DP
// sizes, or a DP rank both own (each started its own rank 0).
func twoInstances(x, y []*server) bool {
	for _, a := range x {
		for _, b := range y {
			da, db := a.DP(), b.DP()
			if da.Known && db.Known && da.N != db.N {
				return true
			}
			if ranksOverlap(a, b) {
				return true
			}
		}
	}
	return false
}

// ranksOverlap reports two servers that own a DP rank in common: each owns
// --data-parallel-rank, or --data-parallel-start-rank (0 unset) and the
// --data-parallel-size-local ranks after it.
func ranksOverlap(a, b *server) bool {
	first := func(s *server) intArg {
		if s.Flag("data-parallel-rank") != nil {
			return s.Int("data-parallel-rank", 0)
		}
		return s.StartRank()
	}
	fa, fb, la, lb := first(a), first(b), a.DPL(), b.DPL()
	if !fa.Known || !fb.Known || !la.Known || !lb.Known || la.N < 1 || lb.N < 1 {
		return false
	}
	return fa.N < fb.N+lb.N && fb.N < fa.N+la.N
}

func groupKey(s *server) string {
	dp, nn := s.DP(), s.NNodes()
	if dp.Known && dp.N <= 1 && nn.Known && nn.N <= 1 && !s.Headless() {
		return ""
	}
	return strings.Join([]string{s.Inv.Deployment, s.KV().Role, wrapperRole(s)}, "\x00")
}

func dpText(s *server) string {
	if f := s.Flag("data-parallel-size"); f != nil && f.Value != nil {
		return f.Value.Text
	}
	return "1"
}

// multiNode reports whether a group spans several nodes.
func multiNode(g []*server) bool {
	if len(g) > 1 {
		return true
	}
	for _, s := range g {
		if s.MultiNodeDP() || (s.NNodes().N > 1) {
			return true
		}
	}
	return false
}

// dpNodes returns the group's servers that take part in mp data parallel
// (not Ray DP, not external-LB single ranks, not --nnodes engines).
func dpNodes(g []*server) []*server {
	var out []*server
	for _, s := range g {
		if s.RayDP() || s.Flag("data-parallel-rank") != nil || s.NNodes().N > 1 || !s.NNodes().Known {
			continue
		}
		out = append(out, s)
	}
	return out
}

// markdownOutlines reads the heading structure of the Markdown inputs.
func markdownOutlines(inputs []Input) map[string]*launch.MarkdownOutline {
	out := map[string]*launch.MarkdownOutline{}
	for _, in := range inputs {
		if launch.Markdown(in.Name) {
			out[in.Name] = launch.Outline(in.Data)
		}
	}
	return out
}
