package lint

// A prefill/decode (P/D) disaggregated deployment runs several independent
// vLLM engines ("instances"), each with its own DP group, joined only by a KV
// connector: one `vllm serve` for prefill and one for decode on one host are
// two engines, not two ranks of one DP group. vLLM's NIXL guide starts both
// with the same `"kv_role":"kv_both"` (the role is "effectively a
// placeholder" for NixlConnector: the proxy decides who prefills,
// vllm@026c83f9:docs/features/nixl_connector_usage.md), so the role does
// not tell the instances apart. What does is the DP group's head: every
// instance has one primary server (no --headless, start rank 0); followers
// join the primary whose DP address they name.

// splitInstances separates the P/D instances a DP group holds when its
// servers carry a KV connector. Two primaries stay together only when both
// name the same routable --data-parallel-address: then they are one DP
// group with a second primary, the slip VL205 reports.
func splitInstances(g []*server) [][]*server {
	if len(g) < 2 || !anyConnector(g) {
		return [][]*server{g}
	}
	for _, s := range g {
		if s.Flag("data-parallel-rank") != nil {
			return [][]*server{g} // per-rank servers (external LB) of one group
		}
	}
	var heads []int // index in out of each instance's primary
	var out [][]*server
	var followers []*server
	for _, s := range g {
		if !instanceHead(s) {
			followers = append(followers, s)
			continue
		}
		joined := false
		for k, h := range heads {
			if sameRoutableAddress(out[k][h], s) {
				out[k] = append(out[k], s)
				joined = true
				break
			}
		}
		if !joined {
			heads = append(heads, 0)
			out = append(out, []*server{s})
		}
	}
	if len(out) < 2 {
		return [][]*server{g}
	}
	for _, f := range followers {
		k := followerInstance(out, f)
		out[k] = append(out[k], f)
	}
	return out
}

// instanceHead reports a server that starts a DP group of its own: not
// --headless, no start rank past 0, not a LeaderWorkerSet worker pod.
func instanceHead(s *server) bool {
	if s.Headless() || s.Inv.Role == "worker" {
		return false
	}
	sr := s.StartRank()
	return !sr.Set || (sr.Known && sr.N == 0)
}

// followerInstance picks the instance a headless server belongs to: the one
// whose primary names the same DP address, else the one in the same file,
// else the first.
func followerInstance(out [][]*server, f *server) int {
	fa, fok := f.Str("data-parallel-address")
	for k, inst := range out {
		if a, ok := inst[0].Str("data-parallel-address"); ok && fok && a.Text == fa.Text {
			return k
		}
	}
	for k, inst := range out {
		if inst[0].Inv.File == f.Inv.File {
			return k
		}
	}
	return 0
}

// sameRoutableAddress reports two servers naming one routable DP address.
func sameRoutableAddress(a, b *server) bool {
	x, ok1 := a.Str("data-parallel-address")
	y, ok2 := b.Str("data-parallel-address")
	return ok1 && ok2 && x.Text == y.Text && !isLoopback(x.Text)
}

// anyConnector reports a group with a P/D server (a transfer connector or
// a P/D role; an offloading-only connector keeps one engine one engine).
func anyConnector(g []*server) bool {
	for _, s := range g {
		if pdServer(s) {
			return true
		}
	}
	return false
}
