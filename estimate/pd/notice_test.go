package pd

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/sim"
)

// noticedRead is vLLM's step-end notice of a finished KV read: never
// below the read itself, never falling as the read lengthens; a lone
// session (nothing else decoding) or an idle engine waits for the read
// alone; an engine busy with others' decodes notices a short read at the
// end of the step it started in, a long one half a step after it ends.
func TestNoticedRead(t *testing.T) {
	c := propertyBases[2] // gpt-oss-120b, TP4 decode on H200
	c.in, c.out, c.conc, c.gbit, c.nics, c.latUs, c.version, c.maxLen = 4096, 128, 8, 400, 8, 2, "0.11.0", 16384
	_, dec := c.inputs(t)
	p := newPool("decode", &dec)
	const step = 0.010
	busy := sim.Result{MeanStepS: step, MeanRunning: 40}
	for name, tc := range map[string]struct {
		r        sim.Result
		sessions int
		read     float64
		want     float64
	}{
		"lone session":           {busy, 1, 0.002, 0.002},
		"no step measured":       {sim.Result{MeanRunning: 40}, 0, 0.002, 0.002},
		"idle engine":            {sim.Result{MeanStepS: step}, 0, 0.002, 0.002},
		"busy, short read":       {busy, 0, 0.002, step*(1-math.Exp(-40)) + 0.002*math.Exp(-40)},
		"busy, long read":        {busy, 0, 0.050, (0.050+step/2)*(1-math.Exp(-40)) + 0.050*math.Exp(-40)},
		"busy closed loop of 64": {busy, 64, 0, step * (1 - math.Exp(-40*63.0/64))},
	} {
		if got := noticedRead(&p, tc.r, tc.read, tc.sessions); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: %.6f s, want %.6f", name, got, tc.want)
		}
	}
	for _, r := range []sim.Result{busy, {MeanStepS: step, MeanRunning: 0.5}} {
		prev := 0.0
		for read := 0.0; read <= 0.1; read += 0.0005 {
			got := noticedRead(&p, r, read, 0)
			if got < read-1e-15 || got < prev-1e-15 {
				t.Fatalf("running %.1f: a read of %.4f s is noticed after %.6f s (a shorter one after %.6f s)", r.MeanRunning, read, got, prev)
			}
			prev = got
		}
	}
}
