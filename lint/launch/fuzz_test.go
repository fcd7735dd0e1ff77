package launch

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/vlaunch/vlaunch/lint/internal/fuzzseed"
)

// addSeeds adds every corpus and fixture file with one of the extensions.
func addSeeds(f *testing.F, exts ...string) {
	for _, data := range fuzzseed.Files("../testdata", exts...) {
		f.Add(data)
	}
}

// FuzzParseShell: the shell front end must not panic or run away.
func FuzzParseShell(f *testing.F) {
	addSeeds(f, ".sh")
	f.Add([]byte("for i in {0..3}; do vllm serve m --data-parallel-start-rank $((i*8)) & done"))
	f.Add([]byte("ssh h <<EOF\nvllm serve ${M:-x} \\ \n--tp 8\nEOF\n"))
	f.Add([]byte("g=()\nif [ -e /dev/gdrdrv ]; then g=(--device /dev/gdrdrv); fi\ndocker run ${g[@]+\"${g[@]}\"} ${h[*]:+${h[*]}} ${!g[@]} vllm/vllm-openai m\n"))
	// a caller default deciding if/elif and case (their other arms walked
	// as alternatives), ${X-} in a flag, a Python here-document with a
	// format field
	f.Add([]byte("R=${NODE_RANK:-0}\nS=$((R*8))\nif [ \"$R\" -eq 0 ]; then vllm serve a & elif [ $R -eq $((${XP:-1}+1)) ]; then vllm serve b --r $S & fi\ncase \"${ROLE:-h}\" in h) A+=(--port 1);; *) A+=(--headless);; esac\nvllm serve m \"${A[@]}\" --kv-cache-memory-bytes=${KV-}\n"))
	f.Add([]byte("IF=$(python3 - <<'PY'\nprint(f\"{src}\")\nPY\n)\necho \"Usage: $0 <role>\"\nvllm serve m\n"))
	// a parent's unexported array read two shell levels down, with JSON
	// quoted through both ('"'"' nesting), and a quoted here-document child
	f.Add([]byte("n=($(scontrol show hostnames))\nsrun bash -c 'X=1\nexec bash -lc '\"'\"'vllm serve m --data-parallel-address ${n[0]} --kv-transfer-config '\"'\"'\"'\"'\"'\"'\"'\"'{\"kv_role\":\"kv_both\"}'\"'\"'\"'\"'\"'\"'\"'\"''\"'\"''\nH=h\nbash <<'EOF'\nvllm serve m --x $H ${H:-d}\nEOF\n"))
	// an unquoted args string partly unresolved (a placeholder, a $(...)
	// with blanks) holding quoted JSON
	f.Add([]byte("A=\"\n--model {M}\n--host $(hostname -I | awk '{print $1}')\n--kv-transfer-config '{\\\"kv_role\\\":\\\"kv_both\\\"}'\n\"\nB=\"$A --x ${Y}z\"\nvllm serve {M} $B ${B:-d} $A$B\n"))
	// read with a here-document / here-string, an array joined in it
	f.Add([]byte("A=(--p 1)\nread -r -d '' C << E\nvllm serve m ${A[@]} ${A[*]}\nE\nread X <<< \"--q \\\\\n2\"\nread -a Y Z\nscreen -dm bash -c \"$C $X\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ParseShell("fuzz.sh", data)
	})
}

// FuzzParseManifest: the Kubernetes and Compose front end must not panic.
func FuzzParseManifest(f *testing.F) {
	addSeeds(f, ".yaml")
	f.Add([]byte("kind: LeaderWorkerSet\nspec: {leaderWorkerTemplate: {size: 3, workerTemplate: {spec: {containers: [{name: v, image: vllm/vllm-openai:v0.11.1, args: [m, -dp, $(X)]}]}}}}\n"))
	for _, seed := range operatorSeeds {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ParseManifest("fuzz.yaml", data)
	})
}

// FuzzScalarPositions: mapping any scalar of any YAML back to the file
// must not panic, and every position must lie inside the file.
func FuzzScalarPositions(f *testing.F) {
	addSeeds(f, ".yaml")
	f.Add([]byte("k: \"a\\\n  b \\u00e9\n\n  c\"\nl: 'x\n  y'\nm: >\n  p\n\n  q\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var root yaml.Node
		if yaml.Unmarshal(data, &root) != nil {
			return
		}
		src := newFileSource("fuzz.yaml", validUTF8(data), true)
		var walk func(n *yaml.Node, depth int)
		walk = func(n *yaml.Node, depth int) {
			if depth > 50 {
				return
			}
			if n.Kind == yaml.ScalarNode {
				v := scalarValue(src, n)
				for i := range v.Text {
					if p := v.PosAt(i); p.Line < 0 || p.Line > len(src.lines) || p.Col < 0 {
						t.Fatalf("byte %d of %q at %v, outside the file", i, v.Text, p)
					}
				}
			}
			for _, c := range n.Content {
				walk(c, depth+1)
			}
		}
		walk(&root, 0)
	})
}

// FuzzParseMarkdown: the Markdown front end must not panic, and every
// position it gives lies inside the document.
func FuzzParseMarkdown(f *testing.F) {
	addSeeds(f, ".md")
	f.Add([]byte("   ```bash title=\"x\"\n   vllm serve m --tp 8\n```\n```console\n$ vllm serve m \\\n  --x 1\nout\n```\n```yml\n  a: [b\n```\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := len(strings.Split(string(data), "\n"))
		invs, _, _ := ParseMarkdown("fuzz.md", data)
		for _, inv := range invs {
			for _, a := range inv.Args {
				for i := range a.Text {
					if p := a.PosAt(i); p.Line < 0 || p.Line > lines {
						t.Fatalf("byte %d of %q at %v, outside the document", i, a.Text, p)
					}
				}
			}
		}
	})
}

// operatorSeeds are small resources of the operators the front end expands
// (KServe pools with workers and prefill, Dynamo multinode, kthena roles,
// DisaggregatedSet roles, named roles of a resource vlaunch does not model).
var operatorSeeds = []string{
	"apiVersion: serving.kserve.io/v1alpha2\nkind: LLMInferenceService\nspec: {model: {name: a/b}, parallelism: {tensor: 2, data: 4, dataLocal: 2, expert: true}, template: {containers: [{name: main, env: [{name: VLLM_ADDITIONAL_ARGS, value: \"--kv_transfer_config '{\\\"kv_connector\\\":\\\"NixlConnector\\\"}'\"}]}]}, worker: {containers: [{name: main}]}, prefill: {parallelism: {tensor: 1}, template: {containers: [{name: main, args: [--enforce-eager]}]}}}\n",
	"apiVersion: nvidia.com/v1alpha1\nkind: DynamoGraphDeployment\nspec: {services: {W: {componentType: worker, envs: [{name: A, value: b}], multinode: {nodeCount: 3}, resources: {limits: {gpu: \"2\"}}, extraPodSpec: {mainContainer: {command: [sh, -c], args: [\"python3 -m dynamo.vllm --model m --tensor-parallel-size 1 --data-parallel-size 8\"]}}}}}\n",
	"apiVersion: workload.serving.volcano.sh/v1alpha1\nkind: ModelServing\nspec: {template: {roles: [{name: p, workerReplicas: 2, entryTemplate: {spec: {containers: [{name: e, command: [vllm, serve, m, --data-parallel-address, $(ENTRY_ADDRESS)]}]}}, workerTemplate: {spec: {containers: [{name: w, args: [$(WORKER_INDEX)]}]}}}]}}\n",
	"apiVersion: disaggregatedset.x-k8s.io/v1\nkind: DisaggregatedSet\nspec: {slices: 2, roles: [{name: prefill, spec: {replicas: 2, leaderWorkerTemplate: {size: 2, workerTemplate: {spec: {containers: [{name: v, command: [vllm, serve, m, --data-parallel-multi-port-external-lb, -dpl, \"8\", --data-parallel-start-rank, $(LWS_WORKER_INDEX)]}]}}}}}, {name: decode, leaderWorkerTemplate: {workerTemplate: {spec: {containers: [{name: v, args: [m]}]}}}}]}\n",
	"apiVersion: orchestration.aibrix.ai/v1alpha1\nkind: StormService\nspec: {template: {spec: {roles: [{name: prefill, replicas: 2, template: {spec: {containers: [{name: p, command: [sh, -c, \"vllm serve $SPEC_ARGS m -tp 1\"]}]}}}, {name: decode, template: {spec: {containers: [{name: d, args: [m]}]}}}]}}}\n",
}

// FuzzConfigArgs: reading a --config file must not panic, and every
// argument it yields is a flag or follows one.
func FuzzConfigArgs(f *testing.F) {
	addSeeds(f, ".yaml")
	f.Add([]byte("model: m\ntensor-parallel-size: 2\nenforce-eager: true\nx: [1, 2]\ny: {a: 1}\nz: false\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		args, ok := ConfigArgs("c.yaml", data)
		if ok && len(args) > 0 && !strings.HasPrefix(args[0].Text, "--") {
			t.Errorf("first argument %q is no flag", args[0].Text)
		}
	})
}
