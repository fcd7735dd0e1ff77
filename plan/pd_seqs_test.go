package plan

import (
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// TestPDDecodeSeqsChoices: a decode pool is tried with the colocated
// search's max_num_seqs choices for its ranks (the release's default and
// the fullest rank's share of the sessions), a prefill pool with the
// top-level value only; and a choice that holds every session at once
// only with the smaller value is kept (the reason to try it: with the
// default, EST103, vLLM queues the excess).
func TestPDDecodeSeqsChoices(t *testing.T) {
	onlySmallIn := map[string]int{}
	for _, name := range []string{"deepseek-v3-pd-32xh20", "pd/pd-wins-h200", "gpt-oss-120b-pd-2x8h100"} {
		d, _, _ := pdSpec(t, name)
		base, own, err := colocatedBase(d)
		if err != nil {
			t.Fatal(err)
		}
		s := newPDSearch(d, base, own, nil)
		s.candidates()
		seen := map[string]map[int]bool{spec.RolePrefill: {}, spec.RoleDecode: {}}
		onlySmall := 0
		for _, p := range s.pools {
			seen[p.role][p.set.MaxNumSeqs] = true
			if p.role == spec.RoleDecode && p.set.MaxNumSeqs > 0 && holdsAll(p) {
				q := p.set
				q.MaxNumSeqs = 0
				if d := s.pool(spec.RoleDecode, own.dtype(), q); !holdsAll(d) {
					onlySmall++
				}
			}
		}
		if len(seen[spec.RolePrefill]) != 1 || !seen[spec.RolePrefill][0] {
			t.Errorf("%s: prefill pools tried with max_num_seqs %v, want the top-level value only", name, seen[spec.RolePrefill])
		}
		if len(seen[spec.RoleDecode]) < 2 || !seen[spec.RoleDecode][0] {
			t.Errorf("%s: decode pools tried with max_num_seqs %v, want the default and the ranks' shares", name, seen[spec.RoleDecode])
		}
		onlySmallIn[name] = onlySmall
	}
	// On 2 × 8 H200 with the spec's sessions, one decode layout holds them
	// all at once only when max_num_seqs leaves the sampler's rows to KV.
	if onlySmallIn["pd/pd-wins-h200"] == 0 {
		t.Errorf("no decode choice of pd-wins-h200 fits only with the smaller max_num_seqs (%v)", onlySmallIn)
	}
}

// holdsAll reports whether a decode pool fits and holds every session's
// KV at once (no EST103).
func holdsAll(p *pdPool) bool { return p.fits && p.bound.Pool.Memory.Capacity.Fits }
