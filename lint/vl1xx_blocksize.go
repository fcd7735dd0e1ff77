package lint

import (
	"strconv"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkBlockSize reports a --block-size the served model's attention
// backends refuse or vLLM replaces (VL137), from the same facts validate
// reads for a spec: an architecture whose backends take one kernel block
// size (vllm.Release.ArchitectureBlockSize: DeepSeek-V4 256, MiniMax-M3
// 128) refuses any size it does not divide, with "No common block size for
// N."; an MLA model (vllm.Release.MLAUserBlockSize) has its size replaced
// up to vLLM 0.17.x (an info), and from 0.18.0 a sparse one (DeepSeek-V3.2,
// GLM-5) refuses a size 64 does not divide (an error), a dense one runs
// another backend (an info) or, for a size no backend takes, refuses. A
// dense MLA model's default backend depends on the GPU, so it is judged
// only when the files name one (a spec's catalog GPU); a release whose
// handling (or, for DeepSeek-V4, whose kernel sizes) was not read gives an
// info, never an error.
func checkBlockSize(p *pass) {
	for _, s := range p.Servers {
		b := s.Int("block-size", 0)
		if !b.Set || !b.Known || b.N <= 0 {
			continue
		}
		m := familyModel(s)
		if m == nil {
			continue
		}
		if a, ok := s.Rel.ArchitectureBlockSize(m.ModelType); ok {
			if note := a.Unverified(b.N); note != "" {
				p.ReportAtSeverity(s.Inv, b.At, diag.Info, blockHint(a.Kernel),
					"--block-size %d for %s is unverified in vLLM %s: %s", b.N, m.ID, s.Rel.Version, note)
			} else if why := a.Refusal(b.N); why != "" {
				p.ReportVersioned(s, b.At, blockHint(a.Kernel),
					"--block-size %d cannot serve %s: %s", b.N, m.ID, why)
			}
			continue
		}
		if !m.IsMLA() {
			continue
		}
		sm := blockGPUMajor(p)
		if sm == 0 && !m.IsSparseAttention() {
			continue // the dense default backend depends on the GPU
		}
		fp8 := false
		if v, ok := s.Str("kv-cache-dtype"); ok && v.Known {
			fp8 = v.Text == "fp8" || v.Text == "fp8_e4m3"
		}
		backend, _ := s.Rel.MLABackend(sm, fp8, m.IsSparseAttention())
		u := s.Rel.MLAUserBlockSize(backend, m.IsSparseAttention(), sm, fp8, b.N)
		switch {
		case u.Action == vllm.UserBlockRefused && !u.Unread:
			p.ReportVersioned(s, b.At, blockHint(64), "--block-size %d cannot serve %s: %s", b.N, m.ID, u.Why)
		case u.Unread && u.Action != vllm.UserBlockKept:
			p.ReportAtSeverity(s.Inv, b.At, diag.Info, "remove --block-size to take vLLM's own choice",
				"--block-size %d for %s is unverified in vLLM %s: %s", b.N, m.ID, s.Rel.Version, u.Why)
		case u.Action == vllm.UserBlockOverridden:
			p.ReportAtSeverity(s.Inv, b.At, diag.Info, "remove --block-size, or write the size vLLM forces",
				"--block-size %d is not what runs: %s", b.N, u.Why)
		case u.Action == vllm.UserBlockSwitched:
			p.ReportAtSeverity(s.Inv, b.At, diag.Info, "remove --block-size to keep the default backend",
				"--block-size %d changes %s's attention backend: %s", b.N, m.ID, u.Why)
		}
	}
}

// blockHint is the fix for a refused --block-size.
func blockHint(kernel int) string {
	return "remove --block-size (vLLM then picks a size its backends take) or use a multiple of " + strconv.Itoa(kernel)
}

// blockGPUMajor is the compute capability major of the spec's catalog GPU
// (0: no spec, a custom GPU, or not NVIDIA).
func blockGPUMajor(p *pass) int {
	if p.Spec == nil || p.Spec.Hardware.GPU.Name == "" {
		return 0
	}
	g, err := catalog.LookupGPU(p.Spec.Hardware.GPU.Name)
	if err != nil {
		return 0
	}
	return g.ComputeMajor
}
