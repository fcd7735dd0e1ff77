package replay

import "testing"

// TestSGLangRecvInterval reads --scheduler-recv-interval as the InferenceX
// scripts set it (SemiAnalysisAI/InferenceX at 843c6254: dsr1_fp4_b300.sh
// 30 from concurrency 16, else 10; dsr1_fp8_b200.sh the same at TP8 and
// 10 at TP4) and as a plain number; absent, 0 (SGLang's default 1: no
// skipper).
func TestSGLangRecvInterval(t *testing.T) {
	fp4 := "--enable-flashinfer-allreduce-fusion --scheduler-recv-interval (10 below\n      concurrency 16, else 30) --enable-symm-mem"
	fp8 := "--scheduler-recv-interval (10 below concurrency 16, else 30 at TP8) --disable-radix-cache"
	for _, c := range []struct {
		flags    string
		conc, tp int
		want     int
	}{
		{fp4, 1, 4, 10}, {fp4, 8, 8, 10}, {fp4, 16, 4, 30}, {fp4, 32, 8, 30},
		{fp8, 8, 8, 10}, {fp8, 16, 8, 30}, {fp8, 64, 8, 30}, {fp8, 16, 4, 10},
		{"--scheduler-recv-interval 5 --tp 8", 64, 8, 5},
		{"--scheduler-recv-interval=20", 1, 1, 20},
		{"--tp 8 --stream-interval 10", 64, 8, 0},
	} {
		if got := sglangRecvInterval(c.flags, c.conc, c.tp); got != c.want {
			t.Errorf("%q at concurrency %d TP%d: %d, want %d", c.flags, c.conc, c.tp, got, c.want)
		}
	}
}
