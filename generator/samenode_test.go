package generator

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
)

// sameNodeScript is what one instance's script of a shared-node bundle says.
type sameNodeScript struct {
	devices, port, side string
}

var (
	cvdLine  = regexp.MustCompile(`CUDA_VISIBLE_DEVICES=([0-9,]+)`)
	portLine = regexp.MustCompile(`(?m)^  --port ([0-9]+) `)
	sideLine = regexp.MustCompile(`VLLM_NIXL_SIDE_CHANNEL_PORT=([0-9]+)`)
)

func sub(re *regexp.Regexp, s string) string {
	if m := re.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

// TestSameNodePDBundles: examples/gpt-oss-120b-pd-1node-8xh100.yaml (one TP 4
// prefill and one TP 4 decode instance on one 8-GPU node) and a variant of
// two TP 2 instances per pool generate, on bare metal and docker, one
// script per instance on GPUs, API port and side-channel base of its own,
// prefill first (vLLM 0.11.0 listens on base + dp_rank·TP + tp_rank: four
// side-channel ports per TP 4 instance from 5557, two per TP 2 one); on
// docker every container runs with --pid host and --gpus all, its GPUs
// picked by CUDA_VISIBLE_DEVICES. The router lists each instance; the
// scripts parse with bash, pass shellcheck and lint (with the spec) with
// no warning; Kubernetes is refused.
func TestSameNodePDBundles(t *testing.T) {
	base, ds := spec.Load(filepath.Join("..", "examples", "gpt-oss-120b-pd-1node-8xh100.yaml"))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	two := func() *spec.Deployment {
		d, _ := spec.Load(filepath.Join("..", "examples", "gpt-oss-120b-pd-1node-8xh100.yaml"))
		for _, role := range spec.Roles {
			p := d.Disaggregation.Pool(role)
			p.Instances, p.Parallelism.Tensor = 2, 2
		}
		return d
	}()
	for _, c := range []struct {
		name string
		d    *spec.Deployment
		want map[string]sameNodeScript
	}{
		{"1P TP4 + 1D TP4", base, map[string]sameNodeScript{
			"prefill/node0-replica1.sh": {"0,1,2,3", "8100", "5557"},
			"decode/node0-replica1.sh":  {"4,5,6,7", "8101", "5561"},
		}},
		{"2P TP2 + 2D TP2", two, map[string]sameNodeScript{
			"prefill/node0-replica1.sh": {"0,1", "8100", "5557"},
			"prefill/node0-replica2.sh": {"2,3", "8101", "5559"},
			"decode/node0-replica1.sh":  {"4,5", "8102", "5561"},
			"decode/node0-replica2.sh":  {"6,7", "8103", "5563"},
		}},
	} {
		spec.ApplyDefaults(c.d)
		for _, rt := range []string{"bare", "docker"} {
			b, ds := gen(t, c.d, Options{Runtime: rt})
			if ds.HasErrors() {
				t.Fatalf("%s %s: %v", c.name, rt, ds)
			}
			for _, f := range lintBundle(t, c.d, b) {
				if f.Severity >= diag.Warning {
					t.Errorf("%s %s: %s", c.name, rt, f)
				}
			}
			scripts := map[string][]byte{}
			var got []string
			for _, f := range b.Files {
				if !strings.HasSuffix(f.Path, ".sh") {
					continue
				}
				scripts[strings.ReplaceAll(f.Path, "/", "-")] = f.Data
				s := string(f.Data)
				if f.Path == "router.sh" {
					for _, w := range c.want {
						if !strings.Contains(s, "http://192.168.2.10:"+w.port) {
							t.Errorf("%s %s: router.sh lacks port %s", c.name, rt, w.port)
						}
					}
					continue
				}
				got = append(got, f.Path)
				w, ok := c.want[f.Path]
				if !ok {
					t.Errorf("%s %s: unexpected script %s", c.name, rt, f.Path)
					continue
				}
				if g := (sameNodeScript{sub(cvdLine, s), sub(portLine, s), sub(sideLine, s)}); g != w {
					t.Errorf("%s %s: %s has GPUs %s, port %s, side channel %s; want %+v", c.name, rt, f.Path, g.devices, g.port, g.side, w)
				}
				pid, all := strings.Contains(s, "  --pid host \\\n"), strings.Contains(s, "--gpus all ")
				if rt == "docker" && (!pid || !all || strings.Contains(s, "device=")) {
					t.Errorf("%s docker: %s: --pid host %v, --gpus all %v", c.name, f.Path, pid, all)
				}
				if rt == "bare" && pid {
					t.Errorf("%s bare: %s has --pid host", c.name, f.Path)
				}
			}
			for _, f := range b.Files {
				if f.Path == "README.md" && (!strings.Contains(string(f.Data), "Both pools run on node0") || rt == "docker" && !strings.Contains(string(f.Data), "`--pid host`")) {
					t.Errorf("%s %s: README.md does not say how the node is shared:\n%s", c.name, rt, f.Data)
				}
			}
			if len(got) != len(c.want) {
				t.Errorf("%s %s: scripts %v", c.name, rt, slices.Sorted(slices.Values(got)))
			}
			checkShell(t, scripts)
		}
		if _, ds := gen(t, c.d, Options{Runtime: "kubernetes"}); !ds.HasErrors() || !strings.Contains(fmt.Sprint(ds), "does not deploy on Kubernetes") {
			t.Errorf("%s kubernetes: %v, want the refusal", c.name, ds)
		}
	}
}

// TestBoundaryNodeHostPID: a pool sharing one boundary node of a multi-node
// P/D spec (plan's boundary split of plan/testdata/pd/pd-boundary-3x8h100.yaml:
// three TP 4 prefill instances on node0 and node1's GPUs 0-3, three TP 4
// decode instances on node1's GPUs 4-7 and node2) runs with --pid host and
// every GPU visible only on the shared node1; on node0 and node2 its
// containers keep their own PID namespace and get their GPUs from docker.
func TestBoundaryNodeHostPID(t *testing.T) {
	d, ds := spec.Load(filepath.Join("..", "plan", "testdata", "pd", "pd-boundary-3x8h100.yaml"))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	d.Disaggregation.Prefill.Instances, d.Disaggregation.Prefill.Nodes = 3, []string{"node0", "node1"}
	d.Disaggregation.Prefill.Parallelism.Tensor = 4
	d.Disaggregation.Decode.Instances, d.Disaggregation.Decode.Nodes = 3, []string{"node1", "node2"}
	spec.ApplyDefaults(d)
	b, ds := gen(t, d, Options{Runtime: "docker"})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	shared := 0
	for _, f := range b.Files {
		s := string(f.Data)
		if !strings.HasSuffix(f.Path, ".sh") || f.Path == "router.sh" {
			continue
		}
		pid, all := strings.Contains(s, "  --pid host \\\n"), strings.Contains(s, "--gpus all ")
		onShared := strings.Contains(f.Path, "node1")
		if pid != onShared || onShared && !all || onShared && sub(cvdLine, s) == "" {
			t.Errorf("%s: --pid host %v, --gpus all %v, CUDA_VISIBLE_DEVICES %q; want the host's PID namespace and every GPU only on node1",
				f.Path, pid, all, sub(cvdLine, s))
		}
		if onShared {
			shared++
		}
	}
	if shared != 2 {
		t.Errorf("%d scripts on node1, want one per pool", shared)
	}
}
