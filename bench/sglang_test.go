package bench

import (
	"math"
	"os"
	"testing"
)

// TestSGLangRandomSpread reads datacrunch-research/h200-benchmarks' SGLang
// 0.4 JSONL (provenance in testdata/README.md). Its random runs
// (random_range_ratio 0, --random-input/output 1024) drew input lengths
// uniformly from [1, 1024] and output lengths from [0, 1024]: mean 512.5
// and 512, standard deviation √((1024²−1)/12) = 295.60 and
// √((1025²−1)/12) = 295.89, so coefficients of variation 0.5768 and
// 0.5779; the measured means (508.7 … 514.6 in, 506.6 … 534.5 out) agree.
// Its ShareGPT runs record random_*_len too, but their lengths are
// ShareGPT's: no spread. The DeepSeek burst (ratio 1) is fixed lengths:
// spread 0, known.
func TestSGLangRandomSpread(t *testing.T) {
	data, err := os.ReadFile("testdata/sglang-0.4-h200-405b-online.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := Parse("o.jsonl", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 6 {
		t.Fatalf("%d results", len(rs))
	}
	inCV := math.Sqrt((1024.0*1024-1)/12) / 512.5
	outCV := math.Sqrt((1025.0*1025-1)/12) / 512
	for i, r := range rs {
		s := r.Shape
		if i < 4 {
			if !s.InputCVKnown || !s.OutputCVKnown || !near(s.InputCV, inCV) || !near(s.OutputCV, outCV) || s.Dataset != "random" {
				t.Errorf("record %d: %+v", i+1, s)
			}
			if rate := []float64{1, 2, 4, 8}[i]; r.Load != (Load{Kind: LoadPoisson, RatePerS: rate, Prompts: r.Completed}) {
				t.Errorf("record %d: load %+v", i+1, r.Load)
			}
			continue
		}
		if s.InputCVKnown || s.OutputCVKnown || s.Dataset != "sharegpt" {
			t.Errorf("record %d: %+v", i+1, s)
		}
	}
	if r := rs[0]; r.Completed != 300 || !near(r.Shape.InputTokens, 152612.0/300) || !near(r.TTFT["median"], 218.80842198152095) || !near(r.ITL["median"], 38.78233698196709) || r.TPOT != nil {
		t.Errorf("record 1: %+v", r)
	}

	data, err = os.ReadFile("testdata/sglang-0.4-h200-dsv2-burst.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	rs, err = Parse("b.jsonl", data)
	if err != nil {
		t.Fatal(err)
	}
	if s := rs[0].Shape; !s.InputCVKnown || !s.OutputCVKnown || s.InputCV != 0 || s.OutputCV != 0 || s.InputTokens != 1 || s.OutputTokens != 512 ||
		rs[0].Load != (Load{Kind: LoadBurst, Prompts: 10000}) {
		t.Errorf("burst: %+v %+v", s, rs[0].Load)
	}
}

// TestSGLangRandomSpreadGuard: a mean that disagrees with the uniform's
// (EOS cut the outputs short) leaves that spread unknown.
func TestSGLangRandomSpreadGuard(t *testing.T) {
	line := `{"backend":"sglang","dataset_name":"random","request_rate":Infinity,"max_concurrency":null,"total_input_tokens":51200,` +
		`"total_output_tokens":30000,"total_output_tokens_retokenized":30000,"random_input_len":1024,"random_output_len":1024,` +
		`"random_range_ratio":0.0,"duration":10,"completed":100,"median_ttft_ms":1}`
	rs, err := Parse("g.jsonl", []byte(line))
	if err != nil {
		t.Fatal(err)
	}
	// input mean 512 vs 512.5 ± 4·295.6/√100 (118) + 2%: known; output 300 vs 512: not.
	if s := rs[0].Shape; !s.InputCVKnown || s.OutputCVKnown {
		t.Errorf("%+v", s)
	}
}
