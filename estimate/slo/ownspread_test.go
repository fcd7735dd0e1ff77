package slo

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/band"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// A side opened by a pooled class's own few sources (band.Band.OwnSpread)
// says so — its own sources, how many and how far apart — not the pool's
// disagreement, which is not why it is open.
func TestOpenWhyOwnSpread(t *testing.T) {
	b := band.Band{Class: band.Dense, Regime: band.TPOTBurst, Low: 0.14, High: 14.3, OpenHigh: true, Disagree: 2.5,
		Sources: []string{"a", "b", "c", "d", "e"}, Pooled: true, Own: 2, OwnSpread: true, OwnDisagree: 1.7}
	why := openWhy(b)
	if !strings.Contains(why, "no upper bound: few sources of its own (2 dense sources") || !strings.Contains(why, "1.7×") || strings.Contains(why, "2.5×") {
		t.Errorf("open for its own few sources: %q", why)
	}
	b.OwnSpread = false
	if why := openWhy(b); !strings.Contains(why, "the sources disagree by up to 2.5×") {
		t.Errorf("open for the pool's disagreement: %q", why)
	}
}

// check's band basis names the own sources' interval exactly when the
// generated table's band was widened to it (DP + EP TPOT).
func TestBandBasisOwnSpread(t *testing.T) {
	in, ds := input.Quick(resolve.QuickOptions{Model: "deepseek-v3", GPU: "h200", TP: 1, DP: 8, EP: true, MaxModelLen: 8192, VLLMVersion: "0.11.0"})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if c := classOf(&in); c != band.MoEEP {
		t.Fatalf("DP 8 + EP DeepSeek-V3: class %s, want moe-ep", c)
	}
	b, basis := sloBand(&in, band.TPOT)
	says := strings.Contains(basis, fmt.Sprintf("its %d moe-ep sources alone", b.Own))
	if says != b.OwnSpread {
		t.Errorf("band own spread %v, basis says so %v: %q", b.OwnSpread, says, basis)
	}
}
