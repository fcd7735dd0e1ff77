package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestStepTermBindings (issue #28 item 5, qa44c F11/F12): every format
// gives each decode-step term its own binding, from the computation that
// priced it, and the dense term is labelled as what it is. On Qwen3-30B-A3B
// on one H100 the dense projections are priced from aiconfigurator's
// measured GEMM table (the model note says so): markdown and HTML called
// the row "roofline", and no format said what bound any single term.
func TestStepTermBindings(t *testing.T) {
	r := checkExample(t, "qwen3-30b-a3b-1xh100.yaml")
	const dense = "measured GEMM table (HBM-bound at this shape)"
	var text, md, page, js bytes.Buffer
	WriteText(&text, r)
	WriteMarkdown(&md, r)
	if err := WriteHTML(&page, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		out  string
		want []string
	}{
		"text":     {text.String(), []string{"dense 1.4 ms [" + dense + "]", "experts 15.4 ms [HBM (roofline)]", "[launch (kernel gaps)]", "[host]"}},
		"markdown": {md.String(), []string{"| term | ms | binding |", "| GPU: dense | 1.44 | " + dense + " |", "| GPU: routed experts | 15.37 | HBM (roofline) |", "| host: between steps | 1.65 | host |"}},
		"html":     {page.String(), []string{"<th>binding</th>", "<td>GPU: dense projections</td><td>1.44 ms</td><td>" + dense + "</td>"}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.out, w) {
				t.Errorf("%s lacks %q", name, w)
			}
		}
		if strings.Contains(c.out, "dense (roofline") || strings.Contains(c.out, "dense projections (roofline") {
			t.Errorf("%s labels the dense term a roofline although the measured GEMM table priced it", name)
		}
	}
	var got struct {
		Performance struct {
			Decode struct {
				Step struct {
					Bindings map[string]string `json:"term_bindings"`
				} `json:"step"`
			} `json:"decode"`
		} `json:"performance"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	b := got.Performance.Decode.Step.Bindings
	if b["dense"] != dense || b["experts"] != "HBM (roofline)" || b["attention"] == "" || b["host"] != "host" {
		t.Errorf("JSON term_bindings %v", b)
	}
}
