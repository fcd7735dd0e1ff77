package plan

import (
	"fmt"
	"testing"
	"time"

	"github.com/vlaunch/vlaunch/validate"
)

func TestExplore(t *testing.T) {
	d, ds, err := validate.File("../examples/deepseek-v3-32xh20.yaml")
	if err != nil || ds.HasErrors() {
		t.Fatal(err, ds)
	}
	start := time.Now()
	r := Plan(d, Options{Seed: 1})
	t.Logf("%v %+v", time.Since(start), r.Stats)
	for _, c := range append(r.Top, *r.Own) {
		fmt.Printf("%d %s [%s] %.0f tok/s/GPU tpot %.0f ms %v\n", c.Rank, c.Settings, c.All2AllInEffect, c.PerGPU, c.TPOTS*1e3, c.Score)
		for _, v := range c.SLO {
			fmt.Printf("     %s %s %.3g/%.3g %s\n", v.Verdict, v.Name, v.Predicted, v.Target, v.Binding)
		}
	}
	for _, c := range r.Pareto {
		fmt.Printf("pareto %s @%d %.0f %.0f ms\n", c.Candidate.Settings, c.Sessions, c.PerGPU, c.TPOTS*1e3)
	}
}
