package memory

import (
	"regexp"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestNonTorchTermsNameNoGoIdentifier: the texts check prints beside the
// memory outside PyTorch say where a figure comes from in words and a
// document, never a Go constant ("see NonTorchBaseGiB") a user cannot look up.
func TestNonTorchTermsNameNoGoIdentifier(t *testing.T) {
	goName := regexp.MustCompile(`\b[A-Z][a-z]+[A-Z][A-Za-z]*GiB\b`)
	for _, q := range []resolve.QuickOptions{
		{Model: "llama-3.1-8b", GPU: "h100", VLLMVersion: "0.20.0"},
		{Model: "llama-3.1-8b", GPU: "h100", TP: 2, VLLMVersion: "0.20.0"},
		{Model: "llama-3.1-8b", GPU: "l40s", TP: 2, VLLMVersion: "0.20.0"},
	} {
		for _, term := range NonTorch(testinput.Quick(t, q)) {
			if m := goName.FindString(term.Formula); m != "" {
				t.Errorf("%s on %s TP %d: %q names %s", q.Model, q.GPU, q.TP, term.Formula, m)
			}
		}
	}
}
