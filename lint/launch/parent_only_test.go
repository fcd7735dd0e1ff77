package launch

import (
	"fmt"
	"testing"
)

// TestParentOnlyRefs: a child shell (`bash -c`, `bash <<'EOF'`, nested
// `bash -lc`) sees only exported variables; its command's reference to a
// variable the parent assigned without exporting is recorded (an array is
// never exportable), but not a name the parent expanded itself (a
// double-quoted script, an unquoted here-document, a prefix assignment
// carrying the value) nor one the child assigns or receives exported.
func TestParentOnlyRefs(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		want         []string // "name@line:array"
	}{
		{"single-quoted -c, array", "nodes=(a b)\nbash -c 'vllm serve m --data-parallel-address ${nodes[0]}'\n", []string{"nodes@1:true"}},
		{"single-quoted -c, scalar", "HEAD=10.0.0.1\nbash -c 'vllm serve m --data-parallel-address $HEAD'\n", []string{"HEAD@1:false"}},
		{"nested bash -lc keeps the parent's hidden names", "nodes=(a b)\nsrun bash -c 'X=1\nexec bash -lc '\"'\"'vllm serve m --data-parallel-address ${nodes[0]}'\"'\"''\n", []string{"nodes@1:true"}},
		{"quoted here-document", "HEAD=h\nbash <<'EOF'\nvllm serve m --data-parallel-address $HEAD\nEOF\n", []string{"HEAD@1:false"}},
		{"exported", "export HEAD=h\nbash -c 'vllm serve m --data-parallel-address $HEAD'\n", nil},
		{"an exported array is not passed on", "export nodes=(a b)\nbash -c 'vllm serve m --data-parallel-address ${nodes[0]}'\n", []string{"nodes@1:true"}},
		{"allexport", "set -a\nHEAD=h\nbash -c 'vllm serve m --data-parallel-address $HEAD'\n", nil},
		{"double-quoted -c: the parent expands", "HEAD=$(hostname)\nbash -c \"vllm serve m --data-parallel-address $HEAD\"\n", nil},
		{"unquoted here-document: the parent expands", "HEAD=$(hostname)\nbash <<EOF\nvllm serve m --data-parallel-address $HEAD\nEOF\n", nil},
		{"prefix assignment carries the value", "nodes=($(scontrol show hostnames))\nP=\"${nodes[0]}\" bash -c 'vllm serve m --data-parallel-address $P'\n", nil},
		{"the child assigns it", "HEAD=h\nbash -c 'HEAD=$(hostname); vllm serve m --data-parallel-address $HEAD'\n", nil},
		{"guarded expansion", "HEAD=h\nbash -c 'vllm serve m --data-parallel-address ${HEAD:-127.0.0.1}'\n", nil},
		{"same shell", "nodes=(a b)\nvllm serve m --data-parallel-address ${nodes[0]}\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			invs, _, _ := ParseShell("t.sh", []byte(tc.script))
			if len(invs) != 1 {
				t.Fatalf("%d invocations, want 1", len(invs))
			}
			var got []string
			for _, r := range invs[0].ParentOnlyRefs {
				got = append(got, fmt.Sprintf("%s@%d:%v", r.Name, r.SetAt.Line, r.Array))
			}
			if diff := diffStrings(tc.want, got); diff != "" {
				t.Errorf("%s", diff)
			}
		})
	}
}
