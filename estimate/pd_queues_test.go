package estimate

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// pdQueuedDecode is eight TP 1 decode engines of Llama-3.3-70B FP8 on H100
// at 512 sessions of 768 tokens: 1.43 GiB of KV per GPU holds 12 of the 64
// sessions each engine gets (the decode pool's EST103, a warning).
var pdQueuedDecode = []string{"max_model_len: 16384", "max_model_len: 8192", "concurrency: 64", "concurrency: 512"}

// A P/D verdict the decode pool's admission binds says that its KV cache
// queues the sessions (its EST103), as a colocated check's binding
// (kv_capacity) does: it said "decode admission 3.312 s" and no more.
func TestPDDecodeAdmissionNamesTheKVQueue(t *testing.T) {
	r := CheckPD(pdSpecFrom(t, "pd-not-starting-decode-tp1.yaml", pdQueuedDecode...), PerfOptions{Seed: 1, NoAdvice: true})
	if r.Memory.Capacity.Fits {
		t.Fatal("the decode pool holds every session: the test needs one that queues")
	}
	named := 0
	for _, v := range r.SLO {
		// Named by the P/D model (pdttft41: "the decode pool's KV cache
		// binds: it holds 96 of the 512 sessions at once") and linked to
		// the memory check's EST103, or by the memory check alone.
		says := strings.Contains(v.Explanation, "the decode pool's KV cache binds: it holds 96 of the 512 sessions at once") &&
			strings.Contains(v.Explanation, "(EST103: its fullest rank holds 12 of the 64 sessions it gets at once at full length") ||
			strings.Contains(v.Explanation, "the decode pool's KV cache holds 12 of the 64 sessions its fullest rank gets at once at full length (EST103)")
		if strings.Contains(v.Binding, "decode admission") != says {
			t.Errorf("%s [%s]: explanation names the KV queue %v: %s", v.Name, v.Binding, says, v.Explanation)
		}
		if says {
			named++
		}
	}
	if named == 0 {
		t.Errorf("no verdict bound by the decode admission: %+v", r.SLO)
	}
}

// For a decode pool whose KV cache queues its sessions, what it would
// take tries fewer, larger decode instances (more KV each), as a
// colocated check's alternatives try a larger TP; it said "GPUs with more
// memory, or fewer sessions (not evaluated)" since no layout with more
// instances holds the model. The line's figure is the P/D model's on the
// spec with it applied (TestPDWouldPassApplied's rule).
func TestPDQueuedDecodeTriesFewerInstances(t *testing.T) {
	r := CheckPD(pdSpecFrom(t, "pd-not-starting-decode-tp1.yaml", pdQueuedDecode...), PerfOptions{Seed: 1})
	re := regexp.MustCompile(`^disaggregation\.decode: instances (\d+), parallelism tensor (\d+)`)
	fewer := 0
	for _, v := range r.SLO {
		for _, l := range v.WouldPass {
			if strings.Contains(l, "GPUs with more memory, or fewer sessions (not evaluated)") {
				t.Errorf("%s: %s", v.Name, l)
			}
			m := re.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			if n, _ := strconv.Atoi(m[1]); n < 8 {
				fewer++
			}
		}
	}
	if fewer == 0 {
		t.Errorf("no line tries fewer decode instances: %+v", r.SLO)
	}
}
