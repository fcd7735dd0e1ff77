package generator

import (
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/validate"
)

// gen004 renders the GEN004 findings, position and all, sorted (validate
// orders its findings by position).
func gen004(ds diag.Diagnostics) []string {
	var out []string
	for _, d := range ds {
		if d.Code == codes.GenAll2All {
			out = append(out, d.String())
		}
	}
	sort.Strings(out)
	return out
}

// TestAll2AllNotesAgree (verify39): validate says of a spec what generate
// says of its all-to-all backend and RoCE fabric (validate.All2AllNotes).
// The 25 Gbit/s RoCE example runs DeepEP across nodes without gid_index:
// generate warned about NVSHMEM's GID index and noted DeepEP on RoCE,
// validate said neither. With gid_index set the warning goes from both.
func TestAll2AllNotesAgree(t *testing.T) {
	src, err := os.ReadFile("../examples/deepseek-v3-32xh20.yaml")
	if err != nil {
		t.Fatal(err)
	}
	withGID := strings.Replace(string(src), "      kind: roce\n", "      kind: roce\n      gid_index: 3\n", 1)
	for _, c := range []struct {
		name, src string
		gid       bool
	}{{"no gid_index", string(src), true}, {"gid_index 3", withGID, false}} {
		r, vds, err := validate.Bytes("deepseek-v3-32xh20.yaml", []byte(c.src))
		if err != nil || vds.HasErrors() {
			t.Fatalf("%s: validate: %v %v", c.name, err, vds)
		}
		_, gds := Generate(r, Options{})
		v, g := gen004(vds), gen004(gds)
		if strings.Join(v, "\n") != strings.Join(g, "\n") {
			t.Errorf("%s: validate GEN004\n%s\ngenerate GEN004\n%s", c.name, strings.Join(v, "\n"), strings.Join(g, "\n"))
		}
		joined := strings.Join(v, "\n")
		if !strings.Contains(joined, "theoretically compatible") || strings.Contains(joined, "RoCE without gid_index") != c.gid {
			t.Errorf("%s: validate GEN004 %q", c.name, v)
		}
	}
}
