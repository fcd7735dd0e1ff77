package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/vlaunch/vlaunch/estimate/slo"
)

// TestCheckAutoTableAgreesWithReport: on the specs of check_auto.txtar
// (`parallelism: auto`), the layout table's chosen row says what the report
// below it says: its SLOs passed are the report's PASS count out of the
// report's SLOs, it carries check's own figures (confirmed), and EST301
// calls it feasible only when the report does. Before the search confirmed
// its choice, the ranking run's 2/2 for TP 1 · DP 16 · EP off sat above a
// report with one SLO uncertain (1 of 2 passing). With --seed the search
// confirms with that seed, the report's.
func TestCheckAutoTableAgreesWithReport(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "script", "check_auto.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	passLine := regexp.MustCompile(`(?m)^  PASS `)
	for _, tc := range []struct{ name, seed string }{{"auto.yaml", "1"}, {"slow.yaml", "1"}, {"auto.yaml", "7"}} {
		t.Run(tc.name+"/seed "+tc.seed, func(t *testing.T) {
			path := filepath.Join(dir, tc.name)
			var js strings.Builder
			if code := run([]string{"check", "--seed", tc.seed, "-o", "json", path}, strings.NewReader(""), &js, io.Discard); code > 1 {
				t.Fatalf("exit %d", code)
			}
			var r struct {
				Feasible     bool `json:"feasible"`
				LayoutSearch struct {
					Chosen struct {
						TP, DP                int
						SLOPassed             int     `json:"slos_passed"`
						SLOTotal              int     `json:"slos_total"`
						Served                float64 `json:"served_output_tokens_per_s"`
						Confirmed             bool    `json:"confirmed"`
						Bounded, Feasible, EP bool
					} `json:"chosen"`
				} `json:"layout_search"`
				SLO         []slo.Verdict `json:"slo"`
				Performance struct {
					Simulations []struct {
						Result struct {
							Out float64 `json:"output_tokens_per_s"`
						} `json:"result"`
					} `json:"simulations"`
				} `json:"performance"`
			}
			if err := json.Unmarshal([]byte(js.String()), &r); err != nil {
				t.Fatal(err)
			}
			c := r.LayoutSearch.Chosen
			pass := 0
			for _, v := range r.SLO {
				if v.Verdict == slo.VerdictPass {
					pass++
				}
			}
			if !c.Confirmed || c.Bounded {
				t.Errorf("chosen TP %d DP %d EP %v: confirmed %v, bounded %v", c.TP, c.DP, c.EP, c.Confirmed, c.Bounded)
			}
			if c.SLOPassed != pass || c.SLOTotal != len(r.SLO) {
				t.Errorf("chosen TP %d DP %d EP %v: table %d/%d SLOs passed, report %d of %d PASS", c.TP, c.DP, c.EP, c.SLOPassed, c.SLOTotal, pass, len(r.SLO))
			}
			if c.Feasible && !r.Feasible {
				t.Errorf("chosen row feasible, report not")
			}
			// The text report: the → row's "n/m" is the count of PASS lines.
			var txt strings.Builder
			run([]string{"check", "--seed", tc.seed, path}, strings.NewReader(""), &txt, io.Discard)
			// "n/m", then ", k fail" when some fail (the search ranks fewest
			// fails first; report.passedText).
			row := regexp.MustCompile(`(?m)^  → .* (\d+)/(\d+)(?:, (\d+) fail)?$`).FindStringSubmatch(txt.String())
			if row == nil {
				t.Fatalf("no chosen row:\n%.1500s", txt.String())
			}
			// Its served t/s is the report's own simulation, the figure a
			// throughput SLO is judged on, unmarked (check's run).
			if sims := r.Performance.Simulations; len(sims) == 0 || math.Round(sims[0].Result.Out) != math.Round(c.Served) {
				t.Errorf("chosen row's served %.0f tokens/s, the report's simulation %v", c.Served, sims)
			} else if !regexp.MustCompile(fmt.Sprintf(`(?m)^  → .* %.0f +\d+/\d+`, c.Served)).MatchString(txt.String()) {
				t.Errorf("text table's chosen row lacks served %.0f (unmarked):\n%.1500s", c.Served, txt.String())
			}
			if got := len(passLine.FindAllString(txt.String(), -1)); row[1] != strconv.Itoa(got) || row[2] != strconv.Itoa(len(r.SLO)) {
				t.Errorf("text table's chosen row says %s/%s, the report below has %d PASS of %d", row[1], row[2], got, len(r.SLO))
			}
			fails := 0
			for _, v := range r.SLO {
				if v.Verdict == slo.VerdictFail {
					fails++
				}
			}
			if row[3] == "" && fails > 0 || row[3] != "" && row[3] != strconv.Itoa(fails) {
				t.Errorf("text table's chosen row says %q fail, the report fails %d", row[3], fails)
			}
			if strings.Contains(txt.String(), "it fits and meets every SLO") && pass != len(r.SLO) {
				t.Errorf("EST301 says every SLO is met; the report passes %d of %d", pass, len(r.SLO))
			}
		})
	}
}
