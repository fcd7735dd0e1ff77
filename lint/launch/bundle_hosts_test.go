package launch

import "testing"

// TestBundleHostsTable: a directory contributes a file named hosts only
// when it starts with the two lines templates/hosts.tmpl writes (so lint
// reads the bundle's cluster from it); /etc/hosts or another inventory
// named hosts stays skipped as data.
func TestBundleHostsTable(t *testing.T) {
	gen := "# gptoss120b-4x1a100: nodes, addresses and roles (vLLM 0.10.1.1, layout ray)\n" +
		"# node\taddress\tgpus\trole\tdp_ranks\tscript\n" +
		"n0\t10.42.11.242\t1\tray-head\t-\tnode0.sh\n"
	reps := "# m: nodes, addresses and roles (vLLM 0.11.0, layout dp, 2 independent replicas)\n" +
		"# node\taddress\tgpus\trole\tdp_ranks\tscript\treplica\n"
	for _, c := range []struct {
		name, head string
		want       bool
	}{
		{"b/hosts", gen, true},
		{"b/hosts", reps, true},
		{"b/hosts", "127.0.0.1\tlocalhost\n10.0.0.1\tn0\n", false},
		{"b/hosts", "# my cluster: nodes, addresses and roles\n# node\taddress\n", false},
		{"b/hosts.txt", gen, false},
		{"b/inventory", gen, false},
	} {
		if got := BundleHostsTable(c.name, []byte(c.head)); got != c.want {
			t.Errorf("BundleHostsTable(%q, %q) = %v, want %v", c.name, c.head, got, c.want)
		}
		if got := LaunchFile(c.name, []byte(c.head)); got != c.want && c.name != "b/hosts.txt" && c.name != "b/inventory" {
			t.Errorf("LaunchFile(%q, %q) = %v, want %v", c.name, c.head, got, c.want)
		}
	}
}
