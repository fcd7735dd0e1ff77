package perf_test

import (
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/published"
	"github.com/vlaunch/vlaunch/resolve"
)

// updateSpecDec regenerates docs/calibration-speculative.md:
//
//	go test ./estimate/perf -run TestSpeculativeRows -update-speculative
var updateSpecDec = flag.Bool("update-speculative", false, "rewrite docs/calibration-speculative.md")

// specDecRow is one published speculative-decoding measurement reproduced.
type specDecRow struct {
	id, split                   string
	drafts, batch               int
	acc                         float64
	accFrom                     string
	published, predicted, noSpe float64
}

// specDecRows reproduces every targetable steady-decode row that ran
// speculative decoding: the row's layout on its GPUs, its drafts, and its
// acceptance length (the published one, or — where the row has none — the
// MTP default a spec would get, resolve.SpeculativeAcceptance).
func specDecRows(t *testing.T) []specDecRow {
	set, err := published.Throughput()
	if err != nil {
		t.Fatal(err)
	}
	var out []specDecRow
	for _, r := range set.Rows {
		sp := r.Speculative
		if sp == nil || !r.Targetable() || r.Load.Kind != "steady-decode" || !r.Figures.OutputTokPerSPerGPU.Known {
			continue
		}
		if r.Model.Catalog != "deepseek-r1" && r.Model.Catalog != "deepseek-v3" || r.Hardware.GPU != "h20-96g" {
			t.Fatalf("%s: a speculative row this test cannot set up (%s on %s)", r.ID, r.Model.Catalog, r.Hardware.GPU)
		}
		n := sp.NumSpeculativeTokens.Int()
		row := specDecRow{id: r.ID, split: r.Split, drafts: n, batch: r.Load.BatchPerGPU.Int(), published: r.Figures.OutputTokPerSPerGPU.V}
		row.acc, row.accFrom = rowAcceptance(t, sp, n)
		c := calH20Decode
		c.dp, c.nodes = r.Layout.DP.Int(), r.Hardware.Nodes.Int()
		c.specTokens, c.specAccepted = n, row.acc
		ctx := r.Workload.InputTokens.V + r.Workload.OutputTokens.V/2
		row.predicted = c.decodePerGPU(row.batch, ctx)(t, perf.DefaultEfficiency)
		c.specTokens, c.specAccepted = 0, 0
		row.noSpe = c.decodePerGPU(row.batch, ctx)(t, perf.DefaultEfficiency)
		out = append(out, row)
	}
	return out
}

// rowAcceptance is the row's published acceptance length (the middle of a
// published range), else the published MTP default.
func rowAcceptance(t *testing.T, sp *published.Speculative, n int) (float64, string) {
	a := sp.AcceptanceLength
	switch {
	case a.Mean.Known:
		return a.Mean.V, "published"
	case a.Min.Known && a.Max.Known:
		return (a.Min.V + a.Max.V) / 2, fmt.Sprintf("published %g–%g", a.Min.V, a.Max.V)
	}
	acc, err := resolve.SpeculativeAcceptance(resolve.SpecMTP, n, nil)
	if err != nil {
		t.Fatal(err)
	}
	return acc.Value, "not published: the MTP default"
}

// specDecTarget is the ±30% every targeted row is held to.
const specDecTarget = 0.30

// specDecSmallBatch: below this many sequences per GPU a row is shown, not
// held to the target: one sequence per GPU on H20 (p3-mtp-bs1) is outside
// the model for a per-step cost at small batches it lacks (the exclusion
// and its reason are in estimate/replay's Exclusions; the global fit does
// not see it). With DeepEP's fixed per-call latency costed (vllm.
// A2AFixedLatency) it came within 30% for a while; the refit of
// 2026-12-03 leaves it at +30%.
const specDecSmallBatch = 2

// specDecMisses and specDecCeiling: at most one held row may miss ±30%
// (EP32 on H20, whose slowness the model does not explain: analysis §7),
// and none by more than ±45%.
const (
	specDecMisses  = 1
	specDecCeiling = 0.45
)

// TestSpeculativeRows holds the published speculative-decoding decode rows
// within ±30% (specDecMisses may miss, by at most specDecCeiling) and keeps
// docs/calibration-speculative.md current.
func TestSpeculativeRows(t *testing.T) {
	rows := specDecRows(t)
	if len(rows) < 5 {
		t.Fatalf("%d speculative rows, want the Ant Group MTP rows", len(rows))
	}
	var b strings.Builder
	var marked bool
	var missed []string
	b.WriteString(specDecHeader)
	for _, r := range rows {
		e := r.predicted/r.published - 1
		held := r.batch >= specDecSmallBatch
		mark := ""
		if held && math.Abs(e) > specDecTarget {
			missed = append(missed, fmt.Sprintf("%s: predicted %.0f vs published %.0f out tok/s/GPU (%+.0f%%)", r.id, r.predicted, r.published, 100*e))
			mark = " ‡"
			if math.Abs(e) > specDecCeiling {
				t.Errorf("%s", missed[len(missed)-1])
			}
		}
		if !held {
			mark, marked = " †", true
		}
		fmt.Fprintf(&b, "| `%s` | %s | %d | %d | %.2f (%s) | %.0f | %.0f | %+.1f%%%s | %.0f |\n",
			r.id, r.split, r.drafts, r.batch, r.acc, r.accFrom, r.published, r.predicted, 100*e, mark, r.noSpe)
	}
	if marked {
		fmt.Fprintf(&b, "\n† below %d sequences per GPU: shown, not held to ±30%%.\n", specDecSmallBatch)
	}
	if len(missed) > 0 {
		fmt.Fprintf(&b, "\n‡ outside ±30%%: EP32 against EP16 on H20 (docs/calibration-analysis.md §7) — the physical step of issue #28 leaves it where the lumps did not.\n")
	}
	if len(missed) > specDecMisses {
		t.Errorf("%d held rows outside ±30%% (at most %d): %v", len(missed), specDecMisses, missed)
	}
	const path = "../../docs/calibration-speculative.md"
	if *updateSpecDec {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if old, err := os.ReadFile(path); err != nil || string(old) != b.String() {
		t.Errorf("%s is stale: run go test ./estimate/perf -run TestSpeculativeRows -update-speculative", path)
	}
}

const specDecHeader = `# Speculative decoding: vlaunch vs. published measurements

Generated by ` + "`go test ./estimate/perf -run TestSpeculativeRows -update-speculative`" + ` from
` + "`published/throughput.yaml`" + ` (every targetable steady-decode row that ran speculative decoding);
do not edit. Target: ±30%, with the global efficiency constants.

The model (` + "`estimate/perf/spec_draft.go`" + `): a step verifies N + 1 positions per decoding sequence in the
target's forward pass, then runs the draft passes — the first over every token of the step (vLLM's
EagleProposer runs the proposer on the target's hidden states), N − 1 more over one position per
sequence — each through the proposer's layers (for MTP one MoE decoder layer of the target's shape,
with its all-to-all), its fuse projection (eh_proj) and one LM-head row per sequence. A sequence emits
the mean acceptance length per step (the bonus token included). The rows are SGLang's MTP with
` + "`--speculative-num-steps 1 --speculative-num-draft-tokens 2`" + `: one draft, two verified positions (see
published/README.md, "the MTP correction"). Without a published acceptance the row gets what a spec
would: the MTP default, 1 + p + … + p^N with p = 0.85 (DeepSeek-V3 report).

| row | split | drafts | seq/GPU | acceptance length | published out tok/s/GPU | predicted | error | predicted without speculative decoding |
|---|---|---|---|---|---|---|---|---|
`
