package generator

import (
	"bytes"
	"strings"
	"testing"
)

// TestPDBundleDeterministic: the same spec gives the same bytes, for every
// runtime.
func TestPDBundleDeterministic(t *testing.T) {
	for _, rt := range Runtimes {
		a, _ := gen(t, loadSpec(t, "pd"), Options{Runtime: rt})
		b, _ := gen(t, loadSpec(t, "pd"), Options{Runtime: rt})
		if len(a.Files) != len(b.Files) {
			t.Fatalf("%s: %d files, then %d", rt, len(a.Files), len(b.Files))
		}
		for i := range a.Files {
			if a.Files[i].Path != b.Files[i].Path || !bytes.Equal(a.Files[i].Data, b.Files[i].Data) {
				t.Errorf("%s: %s differs between two runs", rt, a.Files[i].Path)
			}
		}
	}
}

// TestPDEveryEngineConnected: every node script of a pool carries the
// pool's --kv-transfer-config and advertises its own address, never
// localhost.
func TestPDEveryEngineConnected(t *testing.T) {
	b, ds := gen(t, loadSpec(t, "pd"), Options{Runtime: "bare"})
	if ds.HasErrors() || b.PD == nil {
		t.Fatal(ds)
	}
	for _, role := range b.PD.Roles {
		for _, n := range role.Plan.ActiveNodes() {
			f := string(fileData(t, b, role.Name+"/"+n.ScriptName))
			if !strings.Contains(f, "--kv-transfer-config '"+role.KVTransferConfig+"'") {
				t.Errorf("%s/%s lacks its --kv-transfer-config", role.Name, n.ScriptName)
			}
			if !strings.Contains(f, "export VLLM_NIXL_SIDE_CHANNEL_HOST="+n.Address+"\n") {
				t.Errorf("%s/%s does not advertise %s", role.Name, n.ScriptName, n.Address)
			}
		}
	}
}

// TestPDSpecEnvWins: a pool's own VLLM_NIXL_SIDE_CHANNEL_PORT replaces
// vlaunch's, once, after the generated variables.
func TestPDSpecEnvWins(t *testing.T) {
	d := loadSpec(t, "pd")
	d.Disaggregation.Decode.VLLM.Env = map[string]string{"VLLM_NIXL_SIDE_CHANNEL_PORT": "6000"}
	b, ds := gen(t, d, Options{Runtime: "bare"})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	f := string(fileData(t, b, "decode/node2.sh"))
	if strings.Count(f, "VLLM_NIXL_SIDE_CHANNEL_PORT=") != 1 || !strings.Contains(f, "VLLM_NIXL_SIDE_CHANNEL_PORT=6000") {
		t.Errorf("decode/node2.sh:\n%s", f)
	}
	if p := string(fileData(t, b, "prefill/node0.sh")); !strings.Contains(p, "VLLM_NIXL_SIDE_CHANNEL_PORT=5557") {
		t.Error("the prefill pool lost its port")
	}
}

// TestPDReadmeNamesTheSpecPort: the README's side-channel table follows a
// pool's own base port.
func TestPDReadmeNamesTheSpecPort(t *testing.T) {
	d := loadSpec(t, "pd")
	d.Disaggregation.Decode.VLLM.Env = map[string]string{"VLLM_NIXL_SIDE_CHANNEL_PORT": "6000"}
	b, _ := gen(t, d, Options{Runtime: "bare"})
	if r := string(fileData(t, b, "README.md")); !strings.Contains(r, "| node2 | decode | 192.168.1.12 | 6000–6007 |") {
		t.Errorf("README:\n%s", r)
	}
}
