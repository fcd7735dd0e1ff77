package published

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"testing"
)

// legacyIDs are the rows of docs/calibration-throughput.md (from the team's
// published-throughput.md); every one must survive the move into this file.
var legacyIDs = []string{"P1-prefill", "P1-decode", "P2-prefill-1K", "P2-prefill-2K", "P2-prefill-4K", "P2-decode",
	"P3-prefill", "P3-decode-48", "P3-decode-32",
	"P4-c8-out", "P4-c8-tpot", "P4-c8-ttft", "P4-c16-out", "P4-c16-tpot", "P4-c16-ttft",
	"P4-c32-out", "P4-c32-tpot", "P4-c32-ttft", "P4-c64-out", "P4-c64-tpot", "P4-c64-ttft",
	"P5-c8-ttft", "P5-c16-ttft", "P5-c32-ttft"}

// legacySources are the sources of those rows; issue 10 asks for more truth
// from other sources.
var legacySources = map[string]bool{"deepseek-day6": true, "lmsys-large-ep": true, "lmsys-ant-h20": true,
	"inferencex-870": true, "vllm-issue-28887": true}

func mustLoad(t *testing.T) *Set {
	t.Helper()
	s, err := Throughput()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestEmbeddedThroughputIsValid(t *testing.T) {
	s := mustLoad(t)
	newRows, newSources := 0, map[string]bool{}
	perSource := map[string]int{}
	for _, r := range s.Rows {
		perSource[r.Source]++
		if !legacySources[r.Source] {
			newRows++
			newSources[r.Source] = true
		}
	}
	if newRows < 20 || len(newSources) < 8 {
		t.Errorf("%d rows from %d new sources; issue 10 asks for at least 20 from at least 8", newRows, len(newSources))
	}
	for _, src := range s.Sources {
		if perSource[src.ID] == 0 {
			t.Errorf("source %s has no rows", src.ID)
		}
	}
	t.Logf("%d sources, %d rows (%d from %d new sources)", len(s.Sources), len(s.Rows), newRows, len(newSources))
}

func TestLegacyRowsAreKept(t *testing.T) {
	s := mustLoad(t)
	owner := map[string]string{}
	for _, r := range s.Rows {
		for _, id := range r.LegacyIDs {
			if prev, dup := owner[id]; dup {
				t.Errorf("legacy id %s on rows %s and %s", id, prev, r.ID)
			}
			owner[id] = r.ID
		}
	}
	for _, id := range legacyIDs {
		if owner[id] == "" {
			t.Errorf("legacy row %s has no row", id)
		}
	}
}

func TestBothSplitsHaveTargetableRows(t *testing.T) {
	s := mustLoad(t)
	for _, split := range []string{SplitCalibration, SplitHoldout} {
		n := 0
		for _, r := range s.Split(split) {
			if r.Targetable() {
				n++
			}
		}
		if n < 20 {
			t.Errorf("split %s has %d targetable rows, want at least 20", split, n)
		}
	}
}

// draftTokens matches SGLang's --speculative-num-draft-tokens K.
var draftTokens = regexp.MustCompile(`--speculative-num-draft-tokens (\d+)`)

// TestSGLangDraftTokensAreNormalised guards the MTP correction: SGLang's
// num-draft-tokens K (eagle top-k 1) counts the verified positions, so the
// row drafts K-1 tokens in vLLM's terms and verifies K.
func TestSGLangDraftTokensAreNormalised(t *testing.T) {
	s := mustLoad(t)
	checked := 0
	for _, r := range s.Rows {
		if r.Speculative == nil {
			continue
		}
		m := draftTokens.FindStringSubmatch(r.Speculative.SourceSetting)
		if m == nil {
			continue
		}
		k, _ := strconv.Atoi(m[1])
		sp := r.Speculative
		if sp.VerifyPositions.Int() != k || sp.NumSpeculativeTokens.Int() != k-1 {
			t.Errorf("%s: num-draft-tokens %d recorded as %s drafts / %s verified, want %d / %d",
				r.ID, k, sp.NumSpeculativeTokens, sp.VerifyPositions, k-1, k)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no SGLang speculative rows checked")
	}
}

func TestMemoryCasesCiteSources(t *testing.T) {
	cases, err := MemoryCases()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no memory cases")
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if c.ID == "" || seen[c.ID] {
			t.Errorf("memory case id %q empty or duplicate", c.ID)
		}
		seen[c.ID] = true
		if c.Source.URL == "" || c.Source.Repo == "" {
			t.Errorf("memory case %s: no source url/repo", c.ID)
		}
	}
}

// TestREADMEListsEverySource keeps the split table of README.md in step
// with the data: every source appears on a line with its split.
func TestREADMEListsEverySource(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := mustLoad(t)
	rows, targetable := map[string]int{}, map[string]int{}
	for _, r := range s.Rows {
		rows[r.Source]++
		if r.Targetable() {
			targetable[r.Split]++
			targetable[r.Source]++
		}
	}
	for _, src := range s.Sources {
		want := fmt.Sprintf("| %s | %s | %d (%d) |", src.ID, src.Split, rows[src.ID], targetable[src.ID])
		if !bytes.Contains(readme, []byte(want)) {
			t.Errorf("README.md split table lacks %q", want)
		}
	}
	sum := fmt.Sprintf("%d calibration and %d holdout rows are targetable", targetable[SplitCalibration], targetable[SplitHoldout])
	if !bytes.Contains(readme, []byte(sum)) {
		t.Errorf("README.md lacks %q", sum)
	}
	total := fmt.Sprintf("%d benchmark runs from %d sources", len(s.Rows), len(s.Sources))
	if !bytes.Contains(readme, []byte(total)) {
		t.Errorf("README.md lacks %q", total)
	}
}
