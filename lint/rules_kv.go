package lint

import (
	"strconv"

	"github.com/vlaunch/vlaunch/estimate"
)

// checkKVFit reports a max_model_len that cannot fit one sequence in the KV
// cache, using the estimator when the spec names the GPU (VL125).
func checkKVFit(p *Pass) {
	if p.Spec == nil || p.Spec.Hardware.GPU.Name == "" {
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
				"--max-model-len %d does not fit in the KV cache of one %s rank (about %.1f GiB available)", n, p.Spec.Hardware.GPU.Name, c.AvailableGiB)
		}
	}
}

// kvCapacity runs the memory estimate for one server's layout.
func kvCapacity(p *Pass, s *Server, model string, maxLen int) (estimate.Capacity, bool) {
	tp, pp, dp := s.TP(), s.PP(), s.DP()
	if !tp.Known || !pp.Known || !dp.Known {
		return estimate.Capacity{}, false
	}
	o := estimate.QuickOptions{Model: model, GPU: p.Spec.Hardware.GPU.Name, TP: tp.N, PP: pp.N, DP: dp.N,
		EP: s.EP(), MaxModelLen: maxLen, VLLMVersion: s.Rel.Version.String()}
	if g, ok := s.Str("gpu-memory-utilization"); ok && g.Known {
		o.GPUMemoryUtilization, _ = strconv.ParseFloat(g.Text, 64)
	}
	if k, ok := s.Str("kv-cache-dtype"); ok && k.Known {
		o.KVCacheDType = k.Text
	}
	if n, _ := p.nodeGPUs(s); n > 0 {
		o.GPUsPerNode = n
	}
	in, ds := estimate.QuickInput(o)
	if ds.HasErrors() {
		return estimate.Capacity{}, false
	}
	return estimate.Memory(&in).Capacity, true
}
