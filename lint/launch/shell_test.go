package launch

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// argv returns the texts of every invocation's arguments, one string each.
func argv(invs []*Invocation) []string {
	var out []string
	for _, inv := range invs {
		var words []string
		for _, a := range inv.Args {
			words = append(words, a.Text)
		}
		out = append(out, strings.Join(words, " "))
	}
	return out
}

func TestShellFrontEnd(t *testing.T) {
	tests := []struct {
		name, script string
		want         []string
	}{
		{name: "plain", script: "vllm serve m --tp 8\n", want: []string{"m --tp 8"}},
		{name: "default and split", script: "A=\"--x 1 --y 2\"\nvllm serve ${M:-m} $A \"$A\"\n", want: []string{"m --x 1 --y 2 --x 1 --y 2"}},
		{name: "arith and loop", script: "for i in 0 1; do vllm serve m --r $((i*8)) & done\n", want: []string{"m --r 0", "m --r 8"}},
		{name: "brace loop", script: "for i in {1..2}; do vllm serve m --r $i; done\n", want: []string{"m --r 1", "m --r 2"}},
		{name: "seq loop", script: "for i in $(seq 0 1); do vllm serve m --r $i; done\n", want: []string{"m --r 0", "m --r 1"}},
		{name: "c loop", script: "for ((i=0; i<2; i++)); do vllm serve m --r $i; done\n", want: []string{"m --r 0", "m --r 1"}},
		{name: "array", script: "H=(a b)\nfor i in 0 1; do ssh ${H[$i]} vllm serve m --h ${H[$i]}; done\n", want: []string{"m --h a", "m --h b"}},
		{name: "if known", script: "R=1\nif [ \"$R\" -eq 0 ]; then vllm serve a; else vllm serve b; fi\n", want: []string{"b"}},
		{name: "if unknown", script: "if [ \"$1\" = 0 ]; then vllm serve a; else vllm serve b; fi\n", want: []string{"a", "b"}},
		// A caller's variable with a default selects one branch, but the
		// other branches run where the caller sets it (a node's rank): they
		// are walked too, with the variable and what derives from it unknown.
		{name: "if caller default", script: "R=${NODE_RANK:-0}\nS=$((R*8))\nif [ \"$R\" -eq 0 ]; then vllm serve a --s $S; elif [ \"$R\" -eq 1 ]; then vllm serve b --s $S; fi\n", want: []string{"a --s 0", "b --s $S"}},
		{name: "if caller default false", script: "if [ \"${NODE_RANK:-0}\" -gt 0 ]; then vllm serve w --r ${NODE_RANK:-0} --headless; fi\nvllm serve h\n", want: []string{"w --r ${NODE_RANK:-0} --headless", "h"}},
		{name: "if caller default else", script: "if [[ ${ROLE:-p} == d ]]; then vllm serve d; else vllm serve p; fi\n", want: []string{"p", "d"}},
		{name: "case caller default", script: "case \"${ROLE:-head}\" in head) vllm serve h;; worker) vllm serve w --headless;; esac\n", want: []string{"h", "w --headless"}},
		// sbatch --wrap runs its string as the batch script, with the
		// submitting environment and the command's prefix assignments.
		{name: "sbatch wrap", script: "sbatch -N 2 --wrap 'srun vllm serve m --tp 2'\n", want: []string{"m --tp 2"}},
		{name: "sbatch wrap= through env", script: "W=$(cat <<EOF\nvllm serve m --p \\$P\nEOF\n)\nP=7 W=\"$W\" sbatch --wrap='exec bash -lc \"$W\"'\n", want: []string{"m --p 7"}},
		{name: "sbatch script", script: "sbatch job.sh\nvllm serve m\n", want: []string{"job.sh", "m"}}, // a script run, joined when linted too
		{name: "if script default", script: "R=0\nif [ \"$R\" -eq 0 ]; then vllm serve a; else vllm serve b; fi\n", want: []string{"a"}},
		{name: "if default of a set variable", script: "R=1\nif [ \"${R:-0}\" -eq 0 ]; then vllm serve a; else vllm serve b; fi\n", want: []string{"b"}},
		{name: "case", script: "R=w\ncase $R in h) vllm serve a;; w|x) vllm serve b;; esac\n", want: []string{"b"}},
		{name: "function", script: "run() { vllm serve m --r \"$1\"; }\nrun 0\nrun 8\n", want: []string{"m --r 0", "m --r 8"}},
		// POSIX sh builds argv with `set --` and runs it with `exec "$@"`
		// (qa45a F3, a ModelArts launcher: read_file id 55972379089).
		{name: "set -- argv", script: "set -- vllm serve m --tp 8\nset -- \"$@\" --port 8000\nexec \"$@\"\n", want: []string{"m --tp 8 --port 8000"}},
		{name: "set without --", script: "set vllm serve m\nexec \"$@\"\n", want: []string{"m"}},
		{name: "set -- in both arms", script: "set -- vllm serve m\nif [ \"$R\" -eq 0 ]; then set -- \"$@\" --a; else set -- \"$@\" --a; fi\nexec \"$@\"\n", want: []string{"m --a"}},
		// arms that extend it differently: the shared words, then "$@" unresolved
		{name: "set -- per role", script: "set -- vllm serve m --tp 8\nif [ \"$R\" -eq 0 ]; then echo leader; else set -- \"$@\" --headless; fi\nexec \"$@\"\n", want: []string{"m --tp 8 $@"}},
		{name: "set -- in a function is its own", script: "f() { set -- x; }\nset -- vllm serve m\nf\nexec \"$@\"\n", want: []string{"m"}},
		{name: "bash -c", script: "M=m\nbash -c \"vllm serve $M --a 1\"\n", want: []string{"m --a 1"}},
		{name: "heredoc ssh", script: "ssh h <<EOF\nvllm serve m --b 2\nEOF\n", want: []string{"m --b 2"}},
		{name: "dynamo unified entry point", script: "python3 -m dynamo.vllm.unified_main --model m --data-parallel-size 2 &\n", want: []string{"--model m --data-parallel-size 2"}},
		{name: "python module", script: "python3 -u -m vllm.entrypoints.openai.api_server --model m\n", want: []string{"--model m"}},
		{name: "wrappers", script: "nohup numactl --cpunodebind=0 env A=1 vllm serve m > log 2>&1 &\n", want: []string{"m"}},
		{name: "setsid and taskset", script: "setsid taskset -c 0-7 vllm serve m &\n", want: []string{"m"}},
		// bash -c SCRIPT NAME ARGS: the words after the script are $0 and
		// $1... (qa45a F8: a vLLM-project harness's start_service helper,
		// read_file id 68830312021)
		{name: "bash -c with arguments", script: "start() {\n  local name=\"$1\"\n  shift\n  setsid bash -c 'printf \"%s\" \"$$\" > \"$1\"; shift; exec \"$@\"' _ \"/tmp/$name.pid\" \"$@\" &\n}\nCMD=(env A=1 python3 -m vllm.entrypoints.openai.api_server --model m --port 8200)\nstart prefill \"${CMD[@]}\"\n", want: []string{"--model m --port 8200"}},
		{name: "bash -c without arguments", script: "bash -c 'vllm serve m $1'\n", want: []string{"m $1"}},
		{name: "docker image", script: "docker run --gpus all -e A=1 --ipc=host vllm/vllm-openai:v0.10.1 m --tp 2\n", want: []string{"m --tp 2"}},
		{name: "docker entrypoint", script: "docker run --entrypoint bash vllm/vllm-openai:v0.10.1 -c 'vllm serve m'\n", want: []string{"m"}},
		{name: "ray", script: "ray start --head --port=6379\n", want: []string{"--head --port=6379"}},
		{name: "trim patterns", script: "H=node-3.example\nvllm serve m --a ${H%%.*} --b ${H#node-} --c ${H##*-}\n", want: []string{"m --a node-3 --b 3.example --c 3.example"}},
		{name: "seq separator", script: "export CUDA_VISIBLE_DEVICES=$(seq -s, 0 3)\nvllm serve m --d $CUDA_VISIBLE_DEVICES\n", want: []string{"m --d 0,1,2,3"}},
		{name: "echo ignored", script: "echo vllm serve m\n", want: nil},
		// ${A[@]+"${A[@]}"}: every element, or nothing when A is unset
		// (set -u safe); vlaunch's docker bundles pass gdrcopy's device so.
		{name: "array alternate", script: "G=(--x 1)\nvllm serve m ${G[@]+\"${G[@]}\"} --y\n", want: []string{"m --x 1 --y"}},
		{name: "array alternate unset", script: "vllm serve m ${G[@]+\"${G[@]}\"} --y\n", want: []string{"m --y"}},
		{name: "docker gdrcopy", script: "g=()\nif [ -e /dev/gdrdrv ]; then g=(--device /dev/gdrdrv); fi\ndocker run --gpus all ${g[@]+\"${g[@]}\"} vllm/vllm-openai:v0.11.0 m --tp 2\n", want: []string{"m --tp 2"}},
		// docker run IMAGE: an image the script does not name, or one whose
		// name says vLLM, followed by vLLM serve flags is vLLM's server.
		{name: "docker image from caller", script: "docker run --gpus all \"$IMAGE\" --model m --tensor-parallel-size 2\n", want: []string{"--model m --tensor-parallel-size 2"}},
		{name: "docker vendor vllm image", script: "docker run --gpus all registry.local/ai/vllm-rocm:1.2 --model m --max-model-len 8192\n", want: []string{"--model m --max-model-len 8192"}},
		{name: "docker other server's flags", script: "docker run --gpus all \"$IMAGE\" --model-path m --tp 2 --mem-fraction-static 0.8\n", want: nil},
		{name: "docker other image", script: "docker run --gpus all lmsysorg/sglang:latest --model m\n", want: nil},
		{name: "array keys are not elements", script: "G=(a b)\nvllm serve m ${!G[@]}\n", want: []string{"m ${!G[@]}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { parseArgv(t, tt.script, tt.want) })
	}
}

// parseArgv parses a script that must parse cleanly into invocations with
// the wanted arguments, and returns them.
func parseArgv(t *testing.T, script string, want []string) []*Invocation {
	t.Helper()
	invs, _, ds := ParseShell("t.sh", []byte(script))
	if len(ds) > 0 {
		t.Fatalf("diagnostics: %v", ds)
	}
	if diff := diffStrings(want, argv(invs)); diff != "" {
		t.Fatalf("argv (-want +got):\n%s", diff)
	}
	return invs
}

// TestShellPositions checks that a word from a variable points at its definition.
func TestShellPositions(t *testing.T) {
	script := "ARGS=\"--a 1 \\\n  --tensor-parallel-size 8\"\nvllm serve m $ARGS\n"
	invs, _, _ := ParseShell("t.sh", []byte(script))
	if len(invs) != 1 || len(invs[0].Args) != 5 {
		t.Fatalf("got %v", argv(invs))
	}
	if got, want := invs[0].Args[3].Pos, (Pos{Line: 2, Col: 3}); got != want {
		t.Errorf("position of --tensor-parallel-size = %v, want %v", got, want)
	}
}

// TestShellEnv checks exported, prefix and docker environments.
func TestShellEnv(t *testing.T) {
	script := "export NCCL_DEBUG=INFO\nB=2\nC=3 vllm serve m\ndocker run -e D=4 --ipc=host vllm/vllm-openai m\n"
	invs, _, _ := ParseShell("t.sh", []byte(script))
	names := func(env []EnvVar) (out []string) {
		for _, e := range env {
			out = append(out, e.Name+"="+e.Value.Text)
		}
		return out
	}
	if diff := diffStrings([]string{"NCCL_DEBUG=INFO", "C=3"}, names(invs[0].Env)); diff != "" {
		t.Errorf("host env: %s", diff)
	}
	if diff := diffStrings([]string{"B=2"}, names(invs[0].Unexported)); diff != "" {
		t.Errorf("unexported: %s", diff)
	}
	if diff := diffStrings([]string{"D=4"}, names(invs[1].Env)); diff != "" {
		t.Errorf("container env: %s", diff)
	}
	if diff := diffStrings([]string{"NCCL_DEBUG=INFO"}, names(invs[1].HostOnlyEnv)); diff != "" {
		t.Errorf("host-only env: %s", diff)
	}
}

// diffStrings describes how two string lists differ ("" when equal).
func diffStrings(want, got []string) string {
	if reflect.DeepEqual(want, got) || (len(want) == 0 && len(got) == 0) {
		return ""
	}
	return fmt.Sprintf("want %q\n got %q", want, got)
}

// TestPowerShellHint: a PowerShell script gets a hint saying so, not only
// the parser's complaint about an unclosed backquote.
func TestPowerShellHint(t *testing.T) {
	_, _, ds := ParseShell("run.ps1", []byte("docker run --gpus all `\n  --ipc=host `\n  vllm/vllm-openai:latest `\n  --model m\n"))
	if len(ds) != 1 || !strings.Contains(ds[0].Hint, "PowerShell") {
		t.Fatalf("want one VL001 with a PowerShell hint, got %v", ds)
	}
}

// TestWrappers: launchers that wrap vLLM yield serve invocations.
func TestWrappers(t *testing.T) {
	tests := []struct {
		name, script, frontend string
		want                   []string
	}{
		{"dynamo", "python3 -m dynamo.vllm --model m --is-prefill-worker -tp 8\n", "dynamo.vllm", []string{"--model m --is-prefill-worker -tp 8"}},
		{"demo api_server", "python -m vllm.entrypoints.api_server --model m --tensor-parallel-size 4\n", "", []string{"--model m --tensor-parallel-size 4"}},
		{"image by id", "docker run --gpus all --ipc=host 3f2a9c1b0d serve m --tp 2\n", "", []string{"m --tp 2"}},
		{"docker exec", "docker exec -it -e A=1 node-123 vllm serve m --tp 16\n", "", []string{"m --tp 16"}},
		{"run_cluster head", "bash run_cluster.sh vllm/vllm-openai 10.0.0.1 --head /hf -e VLLM_HOST_IP=10.0.0.1\n", "", []string{"--block --head --node-ip-address=10.0.0.1 --port=6379"}},
		{"run_cluster worker", "./run_cluster.sh vllm/vllm-openai 10.0.0.1 --worker /hf -e VLLM_HOST_IP=10.0.0.2\n", "", []string{"--block --address=10.0.0.1:6379"}},
		{"launch_online_dp", "python launch_online_dp.py --dp-size 4 --tp-size 2 --dp-size-local 2 --dp-rank-start 2 --dp-address 10.0.0.1 --dp-rpc-port 123\n", "", []string{
			"model_path --port 9000 --data-parallel-size 4 --data-parallel-rank 2 --data-parallel-rpc-port 123 --tensor-parallel-size 2 --data-parallel-address 10.0.0.1",
			"model_path --port 9001 --data-parallel-size 4 --data-parallel-rank 3 --data-parallel-rpc-port 123 --tensor-parallel-size 2 --data-parallel-address 10.0.0.1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			invs := parseArgv(t, tt.script, tt.want)
			if invs[0].Frontend != tt.frontend {
				t.Errorf("frontend %q, want %q", invs[0].Frontend, tt.frontend)
			}
		})
	}
}

// TestOnlineDPLauncherDevices: each rank of launch_online_dp.py sees its
// own TP devices, and the launcher's platform is Ascend.
func TestOnlineDPLauncherDevices(t *testing.T) {
	invs, _, _ := ParseShell("t.sh", []byte("python3 launch_online_dp.py --dp-size 2 --tp-size 4 --dp-address x.x.x.x\n"))
	if len(invs) != 2 {
		t.Fatalf("want 2 servers (dp-size-local defaults to dp-size), got %d", len(invs))
	}
	e, ok := invs[1].LookupEnv("ASCEND_RT_VISIBLE_DEVICES")
	if !ok || e.Value.Text != "4,5,6,7" || invs[1].GPUs != 4 || invs[1].Platform != PlatformAscend {
		t.Errorf("rank 1: devices %q (%v), GPUs %d, platform %q", e.Value.Text, ok, invs[1].GPUs, invs[1].Platform)
	}
}

// TestDataHeredocNotShell: a JSON request body written with cat is no
// script; a here-document that starts vLLM still is.
func TestDataHeredocNotShell(t *testing.T) {
	invs, _, ds := ParseShell("t.sh", []byte("cat > /tmp/request.json << EOF\n{\n  \"model\": \"${MODEL}\"\n}\nEOF\n"))
	if len(invs) != 0 || len(ds) != 0 {
		t.Errorf("JSON heredoc: %d invocations, diagnostics %v", len(invs), ds)
	}
	invs, _, _ = ParseShell("t.sh", []byte("cat > start.sh <<EOF\nvllm serve m --tp 2\nEOF\nbash start.sh\n"))
	if len(invs) != 2 || invs[0].Kind != KindServe || invs[1].Kind != KindScriptRun {
		t.Errorf("script heredoc: want the server and the run of start.sh, got %d invocations", len(invs))
	}
}

// TestLabelIsNotScript: a two-word argument such as wait_url_ready "vllm
// serve" is a label, not a command line.
func TestLabelIsNotScript(t *testing.T) {
	invs, _, _ := ParseShell("t.sh", []byte("wait_url_ready \"vllm serve\" localhost:8000\n"))
	if len(invs) != 0 {
		t.Errorf("want no invocation, got %d", len(invs))
	}
}

// TestShellDashDash: `bash -c -- SCRIPT` runs SCRIPT (Kubernetes's
// `command: ["/bin/bash", "-c", "--"]` idiom); "--" is no script.
func TestShellDashDash(t *testing.T) {
	invs, _, ds := ParseShell("t.sh", []byte("/bin/bash -c -- 'vllm serve m --tensor-parallel-size 2'\n"))
	if len(invs) != 1 || len(ds) != 0 {
		t.Fatalf("want 1 invocation and no diagnostics, got %d, %v", len(invs), ds)
	}
}

// TestImageVersion: a vLLM image's tag is its release, old ones included
// (the linter notes a release older than its table); other numbering is a
// private image's.
func TestImageVersion(t *testing.T) {
	for image, want := range map[string]string{
		"vllm/vllm-openai:v0.10.1.1":          "0.10.1.1",
		"vllm/vllm-openai:v0.4.2":             "0.4.2",
		"docker.io/vllm/vllm-openai:v0.5.0":   "0.5.0",
		"vllm/vllm-openai:latest":             "",
		"registry.local/my-vllm:1.3.0":        "",
		"nginx:1.25":                          "",
		"vllm/vllm-openai:v0.11.1@sha256:abc": "0.11.1",
		// .postN re-releases (pypi vllm 0.6.3.post1, 0.8.5.post1; the
		// images carry the same tags) are the release they name.
		"vllm/vllm-openai:v0.6.3.post1":  "0.6.3.post1",
		"vllm/vllm-openai:v0.8.5.post1":  "0.8.5.post1",
		"vllm/vllm-openai:v0.10.1-cu128": "0.10.1",
		"vllm/vllm-openai:v0.9.0rc1":     "0.9.0rc1",
	} {
		if got := imageVersion(image); got != want {
			t.Errorf("imageVersion(%q) = %q, want %q", image, got, want)
		}
	}
}

// TestExclusiveBranches: servers in different arms of one if or case never
// run together; servers of one arm, or one before and one after, do.
func TestExclusiveBranches(t *testing.T) {
	tests := []struct {
		name, script string
		want         bool
	}{
		{"if arms", "if [ \"$1\" = 0 ]; then vllm serve a & else vllm serve b & fi\n", true},
		{"caller default arms", "if [ \"${RANK:-0}\" = 0 ]; then vllm serve a & else vllm serve b & fi\n", true},
		{"case arms", "case $ROLE in p) vllm serve a &;; d) vllm serve b &;; esac\n", true},
		{"one arm", "if [ \"$1\" = 0 ]; then vllm serve a & vllm serve b & fi\n", false},
		{"after the if", "if [ \"$1\" = 0 ]; then vllm serve a & fi\nvllm serve b &\n", false},
		{"two ifs", "if [ \"$1\" = 0 ]; then vllm serve a & fi\nif [ \"$2\" = 0 ]; then vllm serve b & fi\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			invs, _, _ := ParseShell("x.sh", []byte(tt.script))
			if len(invs) != 2 {
				t.Fatalf("want 2 invocations, got %q", argv(invs))
			}
			if got := Exclusive(invs[0], invs[1]); got != tt.want {
				t.Errorf("Exclusive = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestImageVersionReal: releases in real image names, as found by exact
// search of public repositories (find_string; the read_file id of the
// file each was seen in): the tag of a vLLM image, a release after the
// word vllm (AMD's rocm/vllm tags, Apptainer files), digits run together
// resolved against the release table, and names that say no vLLM release.
func TestImageVersionReal(t *testing.T) {
	for _, c := range []struct{ image, want, seen string }{
		{"vllm/vllm-openai:v0.11.0", "0.11.0", "a Dockerfile FROM line (id 25542909583)"},
		{"docker://vllm/vllm-openai:v0.11.0", "0.11.0", "an Apptainer image URI in a README (id 61723169773)"},
		{"quay.io/rh_ee_micyang/vllm-cpu:v0.11.0", "0.11.0", "a CPU build's image list (id 62596017403)"},
		{"vllm/vllm-openai-rocm:v0.20.1_2", "0.20.1", "docker commit of a ROCm container (id 56111085890)"},
		{"rocm/vllm:rocm6.4.1_vllm_0.9.1_20250715", "0.9.1", "a ROCm setup guide (id 26083874960)"},
		{"rocm/vllm-dev:rocm6.4.1_navi_ubuntu24.04_py3.12_pytorch_2.7_vllm_0.8.5", "0.8.5", "the same guide (id 26083874960)"},
		{"rocm/vllm:rocm6.4.1_vllm_0.10.1_20250909", "0.10.1", "a BentoML service's AMD base image (id 52565489810)"},
		{"rocm/vllm-dev:rocm7.2_navi_ubuntu22.04_py3.10_pytorch_2.9_vllm_0.14.0rc0", "0.14.0rc0", "a launch script's IMAGE default (id 67004467280)"},
		{"rocm/vllm:rocm7.12.0_gfx120X-all_ubuntu24.04_py3.12_pytorch_2.9.1_vllm_0.16.0", "0.16.0", "a build README's BASE_IMAGE (id 62050692680)"},
		{"rocm/vllm:rocm10.0.0_ubuntu24.04_py3.14_pytorch_2.12.0_vllm_0.27.0", "0.27.0", "a service log (id 69432439625)"},
		{"/shared_silo/scratch/containers/rocm_vllm_rocm7.0.0_vllm_0.11.1_20251103.sif", "0.11.1", "a SLURM launcher's LAUNCHER_IMG (id 51969131900)"},
		{"vllm0141rocm72.sif", "0.14.1", "apptainer build vllm0141rocm72.sif (id 53955607473; also id 55668585915)"},
		{"vllm-r9700-aiter:rocm712-vllm0202", "0.20.2", "a build README, built from VLLM_REF=v0.20.2 (id 62050692680)"},
		{"lmsysorg/sglang:v0.5.6-cu129", "", "SGLang, not vLLM (id 57160374468, with -arm64)"},
		{"lmsysorg/sglang:v0.5.6-cu129-amd64", "", "SGLang (id 24941196843)"},
		{"nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.7.1", "", "Dynamo's own release"},
		{"vllm/vllm-openai:latest", "", "no release"},
	} {
		if got := imageVersion(c.image); got != c.want {
			t.Errorf("imageVersion(%q) = %q, want %q (seen in %s)", c.image, got, c.want, c.seen)
		}
	}
	// Run-together digits that split two ways into no release, or name
	// none, give nothing: "0141" is 0.14.1 only because 0.1.41 is none.
	for _, d := range []string{"099", "01", "0999", "1141"} {
		if got := compactRelease(d); got != "" {
			t.Errorf("compactRelease(%q) = %q, want none", d, got)
		}
	}
}

// TestPassThroughWrapper: a wrapper script handing the arguments after
// `--` to `vllm serve` (vllm-project/speculators scripts/launch_vllm.py,
// run by examples/train/kimi_k3_dspark/launch_extractor_node.sh) is that
// server, its first argument the model; arguments after `--` that are not
// vLLM's, or no `--`, are no server.
func TestPassThroughWrapper(t *testing.T) {
	for _, c := range []struct{ script, want string }{
		{"python scripts/launch_vllm.py Qwen/Qwen3-8B --hidden-states-backend mooncake -- --tensor-parallel-size 4 --port 8000\n",
			"Qwen/Qwen3-8B --tensor-parallel-size 4 --port 8000"},
		{"PY=\"${VLLM_PYTHON:-python}\"\nexec \"$PY\" scripts/launch_vllm.py m/x --trust-remote-code -- --nnodes 2 --node-rank 1 --headless\n",
			"m/x --nnodes 2 --node-rank 1 --headless"},
		{"python train.py --config c.yaml -- --lr 0.1 --epochs 3\n", ""},
		{"python scripts/launch_vllm.py Qwen/Qwen3-8B --tensor-parallel-size 4\n", ""},
	} {
		invs, _, _ := Parse("run.sh", []byte(c.script))
		var got []string
		for _, inv := range invs {
			if inv.Kind == KindServe {
				got = append(got, argv([]*Invocation{inv})...)
			}
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("%q: servers %q, want %q", c.script, got, c.want)
		}
	}
}
