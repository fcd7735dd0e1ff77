package replay

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/published"
)

// TestSGLangFirstTokenLag: under SGLang's overlap loop a first token waits
// for the next batch's scheduling and launch (perf.SGLangFirstTokenLag).
// After an eager 1K prefill the host is busy launching until the GPU is
// nearly done, so the whole serial host time is exposed; after an 8K one
// the GPU runs far behind the host and hides it; vLLM rows and the switch
// off get none.
func TestSGLangFirstTokenLag(t *testing.T) {
	rows := map[string]published.Row{}
	for _, r := range targetableRows(t) {
		rows[r.ID] = r
	}
	sm := func(id string) *perf.StepModel {
		r, ok := rows[id]
		if !ok {
			t.Fatalf("row %s not found", id)
		}
		st, _, err := Setup(r, perf.DefaultEfficiency)
		if err != nil {
			t.Fatal(err)
		}
		return perf.NewStepModel(st)
	}
	lone := func(n float64) []perf.RankLoad {
		return []perf.RankLoad{{PrefillTokens: n, PrefillPairs: n * (n + 1) / 2, PrefillSeqs: 1}}
	}
	short := sm("ixpr3175-dsr1-b300-sglang-tp8-1k1k-c1")
	st := short.Step(lone(1024))
	if st.LaunchS <= st.TotalS-st.OverheadS {
		t.Fatalf("1K prefill: launch %.1f ms within GPU %.1f ms; the case wants a launch-bound step", 1e3*st.LaunchS, 1e3*(st.TotalS-st.OverheadS))
	}
	if lag := short.SGLangFirstTokenLag(lone(1024)); lag != st.HostS || lag <= 0 {
		t.Errorf("1K eager prefill: lag %.3f ms, want the step's serial host time %.3f ms", 1e3*lag, 1e3*st.HostS)
	}
	long := sm("ixpr3175-dsr1-b300-sglang-tp4-8k1k-c1")
	if lag := long.SGLangFirstTokenLag(lone(8192)); lag != 0 {
		t.Errorf("8K GPU-bound prefill: lag %.3f ms, want 0", 1e3*lag)
	}
	for id, r := range rows {
		if r.Engine.Name != "vllm" {
			continue
		}
		if lag := sm(id).SGLangFirstTokenLag(lone(1024)); lag != 0 {
			t.Errorf("%s (vLLM): lag %.3f ms, want 0", id, 1e3*lag)
		}
		break
	}
	defer func(v bool) { perf.UseSGLangFirstTokenLag = v }(perf.UseSGLangFirstTokenLag)
	perf.UseSGLangFirstTokenLag = false
	if lag := short.SGLangFirstTokenLag(lone(1024)); lag != 0 {
		t.Errorf("switch off: lag %.3f ms, want 0", 1e3*lag)
	}
}
