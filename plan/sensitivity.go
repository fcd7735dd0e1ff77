package plan

import (
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// knob is one workload or hardware parameter the sensitivity moves, on a
// grid of multiples of its current value (the smallest change is found to
// the grid's resolution: a factor of two, or 0.05 of utilization).
type knob struct {
	name string
	// now reads the parameter from the spec (after defaults); 0 = not
	// applicable here.
	now func(*resolve.Deployment) float64
	// set writes a value into a copy of the spec.
	set func(*spec.Deployment, float64)
	// grid lists the values to try, nearest first in each direction.
	grid func(now float64, d *resolve.Deployment) []float64
	// describe words a value ("200 Gbit/s per NIC").
	describe func(float64) string
	hardware bool
	// memoryOnly knobs change what fits, not how fast it runs: where the
	// workload still fits in full (every session at max_model_len, the
	// memory verdict), the simulation's verdicts stand.
	memoryOnly bool
}

var knobs = []knob{
	{name: "inter-node bandwidth", hardware: true,
		now: func(d *resolve.Deployment) float64 {
			if !d.Layout.MultiNode() {
				return 0 // nothing crosses the NICs
			}
			return d.Network.InterGbitPerSPerNIC
		},
		set: func(s *spec.Deployment, v float64) { s.Hardware.Network.InterNode.BandwidthGbitPerS = v },
		grid: func(now float64, _ *resolve.Deployment) []float64 {
			return factors(now, []float64{0.5, 0.25}, []float64{2, 4, 8, 16, 32, 64, 128, 256})
		},
		describe: func(v float64) string { return fmt.Sprintf("%s Gbit/s per NIC", num(v)) }},
	{name: "concurrency",
		now: func(d *resolve.Deployment) float64 { return float64(d.Workload.Concurrency) },
		set: func(s *spec.Deployment, v float64) { s.Workload.Concurrency = int(v) },
		grid: func(now float64, _ *resolve.Deployment) []float64 {
			return whole(factors(now, []float64{0.5, 0.25, 0.125}, []float64{2, 4}))
		},
		describe: func(v float64) string { return fmt.Sprintf("%s sessions", num(v)) }},
	{name: "context length (max_model_len)", memoryOnly: true,
		now: func(d *resolve.Deployment) float64 { return float64(d.Engine.MaxModelLen.Value) },
		set: func(s *spec.Deployment, v float64) { s.Workload.MaxModelLen = int(v) },
		grid: func(now float64, d *resolve.Deployment) []float64 {
			return capAt(whole(factors(now, []float64{0.5, 0.25, 0.125}, []float64{2, 4})), float64(d.Model.MaxModelLen()))
		},
		describe: func(v float64) string { return fmt.Sprintf("max_model_len %s", num(v)) }},
	{name: "input length",
		now: func(d *resolve.Deployment) float64 { return float64(d.Workload.InputTokens) },
		set: func(s *spec.Deployment, v float64) { s.Workload.InputTokens = int(v) },
		grid: func(now float64, _ *resolve.Deployment) []float64 {
			return whole(factors(now, []float64{0.5, 0.25}, []float64{2, 4}))
		},
		describe: func(v float64) string { return fmt.Sprintf("%s input tokens per request", num(v)) }},
	{name: "gpu_memory_utilization", memoryOnly: true,
		now: func(d *resolve.Deployment) float64 { return d.Engine.GPUMemoryUtilization.Value },
		set: func(s *spec.Deployment, v float64) { s.VLLM.GPUMemoryUtilization = &v },
		grid: func(now float64, _ *resolve.Deployment) []float64 {
			var out []float64
			for _, step := range []float64{-0.05, 0.05, -0.1, -0.15, -0.2} {
				if v := math.Round((now+step)*100) / 100; v >= 0.5 && v <= 0.98 {
					out = append(out, v)
				}
			}
			return out
		},
		describe: func(v float64) string { return fmt.Sprintf("gpu_memory_utilization %.2f", v) }},
}

// factors multiplies now by each factor, smaller ones first, then larger.
func factors(now float64, down, up []float64) []float64 {
	var out []float64
	for _, f := range append(append([]float64{}, down...), up...) {
		out = append(out, now*f)
	}
	return out
}

// whole rounds to whole numbers ≥ 1 and drops repeats.
func whole(vs []float64) []float64 {
	var out []float64
	seen := map[float64]bool{}
	for _, v := range vs {
		v = math.Max(1, math.Round(v))
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

func capAt(vs []float64, limit float64) []float64 {
	var out []float64
	for _, v := range vs {
		if limit <= 0 || v <= limit {
			out = append(out, v)
		}
	}
	return out
}

func num(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// probe evaluates candidates with one knob moved, caching every result:
// the sensitivity and the search for a hardware change share them.
type probe struct {
	d     *resolve.Deployment
	seed  uint64
	slots []sloSlot
	mu    sync.Mutex
	cache map[probeKey]*probeResult
}

type probeKey struct {
	s    Settings
	knob string
	v    float64
}

// probeResult is a candidate with a knob moved: whether it still fits, the
// step-model bound of every SLO and, once simulated, check's verdicts.
type probeResult struct {
	e         *evaluated
	fits      bool
	simulated bool
}

func newProbe(d *resolve.Deployment, seed uint64, slots []sloSlot) *probe {
	return &probe{d: d, seed: seed, slots: slots, cache: map[probeKey]*probeResult{}}
}

// at resolves and bounds candidate e with knob k at v (memory and step
// model only; cheap).
func (p *probe) at(e *evaluated, k knob, v float64) *probeResult {
	key := probeKey{e.Settings, k.name, v}
	p.mu.Lock()
	r, ok := p.cache[key]
	p.mu.Unlock()
	if ok {
		return r
	}
	r = &probeResult{}
	sp := e.Settings.toSpec(p.d.Spec)
	k.set(sp, v)
	if dep, err := resolve.Assemble(sp, partsOf(p.d)); err == nil {
		c := &evaluated{Candidate: Candidate{Settings: e.Settings, GPUs: dep.Layout.TotalGPUs()}, in: inputOf(dep)}
		c.Fits, _, _, c.kvTokens = memoryOf(&c.in)
		if r.fits = c.Fits && c.kvTokens > 0; r.fits {
			c.OutputTokPerS, c.TPOTS, c.Binding, c.SLO, _ = boundOf(&c.in, p.slots, c.kvTokens)
		}
		r.e = c
	}
	p.mu.Lock()
	p.cache[key] = r
	p.mu.Unlock()
	return r
}

// verdict is SLO j's verdict at r, simulating when the bound cannot tell:
// a bound that fails is a failure (the simulation is never faster); a
// bound that passes needs the simulation.
func (p *probe) verdict(r *probeResult, j int) string {
	if !r.fits || j >= len(r.e.SLO) {
		return verdictFail
	}
	if !r.simulated && r.e.SLO[j].Verdict == verdictPass {
		simulate(r.e, p.seed, p.slots)
		r.simulated = true
	}
	if !r.simulated {
		// A bound that misses the target: a failure here, whether its band
		// still reaches the target (boundVerdict's uncertain, which only
		// keeps the ranking's bound optimistic) or not.
		return verdictFail
	}
	return r.e.SLO[j].Verdict
}

// verdictOf is SLO j's verdict with knob k at r: a memory-only knob keeps
// base's verdict where the workload still fits.
func (p *probe) verdictOf(k knob, r *probeResult, j int, base SLOResult) string {
	if k.memoryOnly {
		if !r.fits {
			return verdictFail
		}
		return base.Verdict
	}
	return p.verdict(r, j)
}

// sensitivity finds, for candidate e, the nearest grid value of every knob
// at which each SLO verdict differs from now (grid points nearest first;
// the step-model bound settles a point without simulating when it fails).
func sensitivity(p *probe, e *evaluated) []Flip {
	per := make([][]Flip, len(knobs))
	var wg sync.WaitGroup
	for i, k := range knobs {
		now := k.now(e.in.Resolved())
		if now <= 0 || len(e.SLO) == 0 {
			continue
		}
		wg.Add(1)
		go func() { // knobs share no probe: one goroutine each
			defer wg.Done()
			grid := byDistance(k.grid(now, e.in.Resolved()), now)
			for j, base := range e.SLO {
				per[i] = append(per[i], p.flip(e, k, now, grid, j, base))
			}
		}()
	}
	wg.Wait()
	var out []Flip
	for _, fs := range per {
		out = append(out, fs...)
	}
	return out
}

// flip is the grid value nearest to now where SLO j's verdict differs.
func (p *probe) flip(e *evaluated, k knob, now float64, grid []float64, j int, base SLOResult) Flip {
	f := Flip{Parameter: k.name, SLO: base.Name, From: now, Now: k.describe(now)}
	for _, v := range grid {
		r := p.at(e, k, v)
		if got := p.verdictOf(k, r, j, base); got != base.Verdict {
			f.To = v
			f.Text = fmt.Sprintf("at %s %s %s", k.describe(v), base.Name, flipWord(got, r.fits))
			return f
		}
	}
	f.Range = fmt.Sprintf("from %s to %s", k.describe(minOf(grid, now)), k.describe(maxOf(grid, now)))
	f.Text = fmt.Sprintf("%s stays %s %s", base.Name, base.Verdict, f.Range)
	f.Verdict = base.Verdict
	return f
}

// byDistance orders grid values by their factor away from now.
func byDistance(grid []float64, now float64) []float64 {
	out := append([]float64(nil), grid...)
	sort.SliceStable(out, func(a, b int) bool { return math.Abs(math.Log(out[a]/now)) < math.Abs(math.Log(out[b]/now)) })
	return out
}

func flipWord(verdict string, fits bool) string {
	switch {
	case !fits:
		return "fails (the workload no longer fits in memory)"
	case verdict == verdictPass:
		return "passes"
	case verdict == verdictUncertain:
		return "becomes uncertain"
	}
	return "fails"
}

func minOf(vs []float64, v float64) float64 {
	for _, x := range vs {
		v = math.Min(v, x)
	}
	return v
}

func maxOf(vs []float64, v float64) float64 {
	for _, x := range vs {
		v = math.Max(v, x)
	}
	return v
}
