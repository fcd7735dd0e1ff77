package lint

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
)

// epdScript is an encode/prefill/decode deployment on one host, written
// after vLLM's own example (v0.13.0
// examples/online_serving/disaggregated_encoder/disagg_1e1p1d_example.sh)
// and the Perlmutter script of qa45a F2 (read_file id 65971232836): the
// encoder has --ec-transfer-config only. ENC_ROLE is replaced per case.
const epdScript = `CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen2-VL-2B-Instruct --port 19534 \
  --gpu-memory-utilization 0.01 \
  --ec-transfer-config "{\"ec_connector\":\"ECExampleConnector\",\"ec_role\":\"ENC_ROLE\",\"ec_connector_extra_config\":{\"shared_storage_path\":\"$PSCRATCH/ec\"}}" &
CUDA_VISIBLE_DEVICES=1 vllm serve Qwen/Qwen2-VL-2B-Instruct --port 19535 \
  --ec-transfer-config '{"ec_connector":"ECExampleConnector","ec_role":"ec_consumer"}' \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}' &
CUDA_VISIBLE_DEVICES=2 vllm serve Qwen/Qwen2-VL-2B-Instruct --port 19536 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}' &
`

// TestEPDEncoderNotPDLeg (qa45a F2): the encoder of an EPD deployment
// (ec_role ec_producer) is not a P/D engine without a KV connector; an
// engine of the same model with no EC producer role still is.
func TestEPDEncoderNotPDLeg(t *testing.T) {
	for _, tt := range []struct {
		role string
		want int
	}{
		{"ec_producer", 0},
		{"ec_both", 1}, // also consumes: may be a P/D leg
		{"ec_consumer", 1},
	} {
		script := strings.Replace(epdScript, "ENC_ROLE", tt.role, 1)
		ds := findingsOf(t, "0.24.0", script, codes.VLPDConnector)
		if len(ds) != tt.want || (tt.want == 1 && ds[0].Line != 1) {
			t.Errorf("ec_role %s: %v, want %d VL224 at line 1", tt.role, ds, tt.want)
		}
	}
	// The dotted spelling sets the role too.
	dotted := strings.Replace(epdScript, `--ec-transfer-config "{\"ec_connector\":\"ECExampleConnector\",\"ec_role\":\"ENC_ROLE\",\"ec_connector_extra_config\":{\"shared_storage_path\":\"$PSCRATCH/ec\"}}"`,
		"--ec-transfer-config.ec_connector ECExampleConnector --ec-transfer-config.ec_role ec_producer", 1)
	if ds := findingsOf(t, "0.24.0", dotted, codes.VLPDConnector); len(ds) != 0 {
		t.Errorf("dotted ec_role ec_producer: %v, want no VL224", ds)
	}
}

// TestSetArgvLaunch (qa45a F3): a POSIX-sh launcher that builds its argv
// with `set --` and runs `exec "$@"` (a ModelArts/Ascend launcher,
// read_file id 55972379089) is read as the launch, and checked: rank 0 of
// a DP deployment starts --data-parallel-size API servers (VL215).
func TestSetArgvLaunch(t *testing.T) {
	script := `#!/bin/sh
set -- vllm serve Qwen/Qwen3-235B-A22B --data-parallel-size 2 --data-parallel-size-local 1 \
    --data-parallel-address 10.0.0.1 --tensor-parallel-size 8 --enable-expert-parallel
if [ -n "${API_SERVER_COUNT:-}" ]; then
    set -- "$@" --api-server-count "$API_SERVER_COUNT"
fi
exec "$@"
`
	if ds := findingsOf(t, "0.24.0", script, codes.VLNoLaunch); len(ds) != 0 {
		t.Errorf("%v, want the `set --` argv read as the launch", ds)
	}
	if ds := findingsOf(t, "0.24.0", script, codes.VLAPIServerCount); len(ds) != 1 || ds[0].Line != 2 {
		t.Errorf("%v, want one VL215 at line 2", ds)
	}
}

// TestYAMLFenceOfShell (qa45a F4): shell commands in a ```yaml fence are
// linted as shell, not an "invalid YAML" error that fails CI on a README;
// a broken manifest in such a fence is still VL001, an error.
func TestYAMLFenceOfShell(t *testing.T) {
	lint := func(doc string) diag.Diagnostics {
		ds, err := Lint([]Input{{Name: "notes.md", Data: []byte(doc)}}, Options{Version: "0.24.0"})
		if err != nil {
			t.Fatal(err)
		}
		return ds
	}
	// the two-command form of the Korean LWS notes (find_string id 59180118999)
	ds := lint("```yaml\n# leaderTemplate command\nvllm serve m --data-parallel-size 2 --data-parallel-size-local 1 \\\n  --data-parallel-address 10.0.0.1 --port 8000\n" +
		"# workerTemplate command\nvllm serve m --headless --data-parallel-size 2 --data-parallel-size-local 1 \\\n  --data-parallel-start-rank 1 --data-parallel-address 10.0.0.1\n```\n")
	for _, d := range ds {
		if d.Code == codes.VLSyntax || d.Code == codes.VLNoLaunch || d.Severity == diag.Error {
			t.Errorf("commands in a yaml fence: %v", d)
		}
	}
	if !hasCode(ds, codes.VLAPIServerCount) {
		t.Errorf("%v, want the leader checked (VL215)", ds)
	}
	// one command alone was VL008 "no vLLM server"
	if ds := lint("```yaml\nvllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 2\n```\n"); hasCode(ds, codes.VLNoLaunch) {
		t.Errorf("%v, want the command read", ds)
	}
	bad := lint("```yaml\napiVersion: apps/v1\nkind: Deployment\nspec:\n  template: [\n```\n")
	if !hasCode(bad, codes.VLSyntax) {
		t.Errorf("%v, want VL001 for a broken manifest", bad)
	}
}

func hasCode(ds diag.Diagnostics, c diag.Code) bool {
	for _, d := range ds {
		if d.Code == c {
			return true
		}
	}
	return false
}

// TestNoLaunchCountsServerModule (qa45a F8): VL008 on a file whose
// api_server command vlaunch does not read says the module appears in it,
// not that it has "no vLLM server (... the OpenAI api_server module ...)".
func TestNoLaunchCountsServerModule(t *testing.T) {
	doc := "test_name: two nodes\ndeployment:\n  -\n    server_cmd: >\n        python3 -m vllm.entrypoints.openai.api_server --model m\n  -\n    server_cmd: >\n        python3 -m vllm.entrypoints.openai.api_server --model m --headless\n"
	ds, err := Lint([]Input{{Name: "case.yaml", Data: []byte(doc)}}, Options{Version: "0.13.0"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].Code != codes.VLNoLaunch || !strings.HasPrefix(ds[0].Message, "`-m vllm.entrypoints.openai.api_server` appears 2 time(s), but not in a form vlaunch reads") {
		t.Errorf("%v, want one VL008 counting the api_server module", ds)
	}
	if got := serverMentions([]byte("# vllm.entrypoints.openai.api_server is started below\nvllm serve m\n")); got != "`vllm serve` appears 1 time(s)" {
		t.Errorf("serverMentions = %q: a module named outside `-m` is not a launch", got)
	}
}

// TestHarnessThroughSetsidChecked (qa45a F8): the api_server commands a
// harness builds as arrays and starts through `setsid bash -c '...; exec
// "$@"' _ "$pidfile" "$@"` (read_file id 68830312021) are read and
// checked; the loopback side-channel default both engines share is one
// VL222, not one per engine, and a warning naming NIXL_SIDE_CHANNEL_HOST:
// 127.0.0.1 is only the script's default for a variable its users set on
// each node (vl222fix45).
func TestHarnessThroughSetsidChecked(t *testing.T) {
	script := `HOST="${NIXL_SIDE_CHANNEL_HOST:-127.0.0.1}"
start_service() {
  local name="$1"
  shift
  setsid bash -c 'printf "%s" "$$" > "$1"; shift; exec "$@"' _ "/tmp/$name.pid" "$@" &
}
prefill_cmd() {
  CMD=(env "VLLM_NIXL_SIDE_CHANNEL_HOST=${HOST}" python3 -m vllm.entrypoints.openai.api_server --model m
    --tensor-parallel-size 8 --port 8200 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}')
}
decode_cmd() {
  CMD=(env "VLLM_NIXL_SIDE_CHANNEL_HOST=${HOST}" python3 -m vllm.entrypoints.openai.api_server --model m
    --tensor-parallel-size 8 --port 8300 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}')
}
case "$ROLE" in
  prefill) prefill_cmd; start_service prefill "${CMD[@]}" ;;
  decode) decode_cmd; start_service decode "${CMD[@]}" ;;
esac
`
	if ds := findingsOf(t, "0.24.0", script, codes.VLNoLaunch); len(ds) != 0 {
		t.Errorf("%v, want the harness's commands read", ds)
	}
	ds := findingsOf(t, "0.24.0", script, codes.VLNixlHost)
	if len(ds) != 1 || ds[0].Line != 1 || ds[0].Severity != diag.Warning || !strings.Contains(ds[0].Message, "only the default of NIXL_SIDE_CHANNEL_HOST") {
		t.Errorf("%v, want one VL222 warning at line 1 naming NIXL_SIDE_CHANNEL_HOST", ds)
	}
}

// TestUnresolvedSubstOneLine (qa45a F11): VL004 names a variable set by a
// multi-line command substitution (a GLM-5.2 script's HF_OVERRIDES,
// read_file id 60452307051) and shows the substitution on one line, with
// no escaped newlines; a bare substitution is collapsed and cut too.
func TestUnresolvedSubstOneLine(t *testing.T) {
	script := "HF_OVERRIDES=\"$(\n    printf '{\"use_index_cache\":true}' \\\n        \"$PATTERN\"\n)\"\nvllm serve m --hf-overrides \"$HF_OVERRIDES\"\n"
	ds := findingsOf(t, "0.24.0", script, codes.VLUnresolved)
	want := `cannot resolve statically: HF_OVERRIDES=$(printf '{"use_index_cache":true}' "$PATTERN")`
	if len(ds) != 1 || ds[0].Message != want {
		t.Errorf("%v, want one VL004 %q", ds, want)
	}
	long := "vllm serve m --port \"$(\n  cat /etc/ports/a-very-long-path/that-goes/on-and-on/and-on/and-on/port-file.txt | head -n 1\n)\"\n"
	ds = findingsOf(t, "0.24.0", long, codes.VLUnresolved)
	if len(ds) != 1 || strings.Contains(ds[0].Message, "\n") || !strings.HasSuffix(ds[0].Message, "…)") || !strings.Contains(ds[0].Message, "$(cat /etc/ports/") {
		t.Errorf("%v, want the substitution on one line, cut", ds)
	}
}

// TestTPHeads (qa45a F9): a tensor size that does not split the attention
// of a model lint recognises is an error (vLLM refuses at start-up,
// ModelConfig.verify_with_parallel_config); a warning when only
// --served-model-name names the model; nothing for an unknown model or a
// size that splits.
func TestTPHeads(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		want diag.Severity // 0: no finding
		msg  string
	}{
		{"vllm serve Qwen/Qwen3-8B --tensor-parallel-size 3", diag.Error, `"Total number of attention heads (32) must be divisible by tensor parallel size (3)"`},
		{"vllm serve /data/models/Qwen3-8B-FP8 -tp 6", diag.Error, "(32 query heads, 8 KV heads)"},
		{"vllm serve /data/ckpt --served-model-name Qwen3-8B -tp 3", diag.Warning, "must be divisible"},
		{"vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 12", diag.Error, "attention heads (64)"},
		// Qwen3-14B: 40 query heads split over 5 ranks, its 8 KV heads do not
		{"vllm serve Qwen/Qwen3-14B -tp 5", diag.Error, "its 8 KV heads are partitioned over TP ranks and tensor parallel size 5 does not divide them"},
		{"vllm serve Qwen/Qwen3-8B -tp 8", 0, ""},
		{"vllm serve deepseek-ai/DeepSeek-V3 -tp 16", 0, ""}, // MLA: 128 heads, no KV heads to split
		{"vllm serve my-org/unknown-model -tp 3", 0, ""},
		{"vllm serve Qwen/Qwen3-8B", 0, ""},
	} {
		ds := findingsOf(t, "0.24.0", tt.cmd+"\n", codes.VLTPHeads)
		switch {
		case tt.want == 0 && len(ds) != 0:
			t.Errorf("%s: %v, want none", tt.cmd, ds)
		case tt.want != 0 && (len(ds) != 1 || ds[0].Severity != tt.want || !strings.Contains(ds[0].Message, tt.msg)):
			t.Errorf("%s: %v, want one VL139 %v containing %q", tt.cmd, ds, tt.want, tt.msg)
		}
	}
}
