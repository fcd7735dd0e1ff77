package lint

import "strconv"

// checkKVFit reports a max_model_len that cannot fit one sequence in the KV
// cache, using the caller's capacity estimate when the spec gives the GPU, a
// catalog id or custom figures (VL125).
func checkKVFit(p *pass) {
	gpu := specGPU(p)
	if gpu == "" || p.Capacity == nil {
		return
	}
	for _, s := range p.Servers {
		v, ok := s.Str("max-model-len")
		m := modelFor(s)
		if !ok || !v.Known || m == nil {
			continue
		}
		n, ok := parseHumanInt(v.Text)
		if !ok || n <= 0 {
			continue
		}
		c, ok := kvCapacity(p, s, m.ID, n)
		if ok && !c.OneSequenceFits {
			p.ReportAt(s.Inv, v.Pos, "lower --max-model-len (the estimate allows about "+strconv.Itoa(c.LargestMaxModelLen)+"), raise --gpu-memory-utilization or add GPUs",
				"--max-model-len %d does not fit in the KV cache of one %s rank (about %.1f GiB available)", n, gpu, c.AvailableGiB)
		}
	}
}

// specGPU names the spec's GPU for messages: its catalog id, or the custom
// figures' name ("custom GPU" without one); "" without a spec or a GPU.
func specGPU(p *pass) string {
	if p.Spec == nil {
		return ""
	}
	g := p.Spec.Hardware.GPU
	switch {
	case g.Name != "":
		return g.Name
	case g.Custom == nil:
		return ""
	case g.Custom.Name != "":
		return g.Custom.Name
	}
	return "custom GPU"
}

// kvCapacity asks the caller's estimate about one server's layout. A
// custom GPU has no catalog id: the caller answers from the spec's resolved
// hardware (GPU "" here).
func kvCapacity(p *pass, s *server, model string, maxLen int) (Capacity, bool) {
	tp, pp, dp := s.TP(), s.PP(), s.DP()
	if !tp.Known || !pp.Known || !dp.Known {
		return Capacity{}, false
	}
	q := CapacityQuery{Model: model, GPU: p.Spec.Hardware.GPU.Name, TP: tp.N, PP: pp.N, DP: dp.N,
		EP: s.EP(), MaxModelLen: maxLen, VLLMVersion: s.Rel.Version.String()}
	if g, ok := s.Str("gpu-memory-utilization"); ok && g.Known {
		q.GPUMemoryUtilization, _ = strconv.ParseFloat(g.Text, 64)
	}
	if k, ok := s.Str("kv-cache-dtype"); ok && k.Known {
		q.KVCacheDType = k.Text
	}
	if n, _ := p.nodeGPUs(s); n > 0 {
		q.GPUsPerNode = n
	}
	return p.Capacity(q)
}
