package lint

import (
	"strconv"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
)

// lintDoc lints one in-memory file for a release and returns the findings
// at min or above, as "CODE@line".
func lintDoc(t *testing.T, name, doc, version string, min diag.Severity) []string {
	t.Helper()
	ds, err := Lint([]Input{{Name: name, Data: []byte(doc)}}, Options{Version: version})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		if d.Severity >= min {
			got = append(got, string(d.Code)+"@"+strconv.Itoa(d.Line))
		}
	}
	return got
}

// ascendCaptioned is our trimmed excerpt of vllm-ascend's
// docs/source/tutorials/models/Qwen3-235B-A22B.md (commit 03d78dae,
// "9.1 Recommended Configurations"): three `<u>`-captioned alternatives
// under one heading, each its own single-node engine (TP4×DP4 with
// rank 0, TP16, TP8 without DP flags). Environment lines and most flags
// are cut; the values that differ are kept.
const ascendCaptioned = "### 9.1 Recommended Configurations\n\n" +
	"<u>Single-node PD Hybrid — High Throughput:</u>\n\n" +
	"```bash\nexport HCCL_IF_IP=<node_ip>\n" +
	"vllm serve your_model_path \\\n    --host <host_ip> \\\n    --port <port> \\\n" +
	"    --tensor-parallel-size 4 \\\n    --data-parallel-size 4 \\\n    --data-parallel-size-local 4 \\\n" +
	"    --data-parallel-start-rank 0 \\\n    --data-parallel-address <node_ip> \\\n    --data-parallel-rpc-port <rpc_port> \\\n" +
	"    --enable-expert-parallel \\\n    --max-num-seqs 128 \\\n    --max-model-len 32768 \\\n    --gpu-memory-utilization 0.9\n```\n\n" +
	"<u>Single-node PD Hybrid — Low Latency:</u>\n\n" +
	"```bash\nvllm serve your_model_path \\\n    --host <host_ip> \\\n    --port <port> \\\n" +
	"    --tensor-parallel-size 16 \\\n    --data-parallel-size 1 \\\n    --data-parallel-size-local 1 \\\n" +
	"    --data-parallel-start-rank 0 \\\n    --data-parallel-address <node_ip> \\\n    --data-parallel-rpc-port <rpc_port> \\\n" +
	"    --enable-expert-parallel \\\n    --max-num-seqs 128 \\\n    --max-model-len 32768 \\\n    --gpu-memory-utilization 0.9\n```\n\n" +
	"<u>Single-node PD Hybrid — Long Context:</u>\n\n" +
	"```bash\nvllm serve your_model_path \\\n    --host <host_ip> \\\n    --port <port> \\\n" +
	"    --tensor-parallel-size 8 \\\n    --data-parallel-size 2 \\\n" +
	"    --enable-expert-parallel \\\n    --max-num-seqs 32 \\\n    --max-model-len 135000 \\\n    --gpu-memory-utilization 0.85\n```\n"

// TestCaptionedAlternatives: captions part alternatives as headings do
// (tagMarkdownSections). The tutorial's three captioned variants drew 8
// errors read as the nodes of one deployment (VL201 ×4, VL202, VL205,
// VL206, VL207); the same commands with the captions removed still do, so
// the captions, not the commands, make the difference. A `**bold**`
// caption parts them the same way.
func TestCaptionedAlternatives(t *testing.T) {
	if got := lintDoc(t, "Qwen3-235B-A22B.md", ascendCaptioned, "0.18.0", diag.Warning); len(got) != 0 {
		t.Errorf("captioned alternatives: want no finding at warning or above, got %v", got)
	}
	bold := strings.ReplaceAll(strings.ReplaceAll(ascendCaptioned, "<u>", "**"), "</u>", "**")
	if got := lintDoc(t, "bold.md", bold, "0.18.0", diag.Warning); len(got) != 0 {
		t.Errorf("bold-captioned alternatives: want no finding at warning or above, got %v", got)
	}
	var plain []string
	for _, l := range strings.Split(ascendCaptioned, "\n") {
		if !strings.HasPrefix(l, "<u>") {
			plain = append(plain, l)
		}
	}
	got := strings.Join(lintDoc(t, "plain.md", strings.Join(plain, "\n"), "0.18.0", diag.Warning), " ")
	for _, code := range []string{"VL201", "VL202", "VL205", "VL206", "VL207"} {
		if !strings.Contains(got, code) {
			t.Errorf("uncaptioned: want %s (the variants read as one deployment), got %s", code, got)
		}
	}
}

// TestCaptionKeepsRayHeadAndServe: a caption between a Ray head and the
// `vllm serve` run on it (vllm-ascend's ray.md: "**You only need to run
// the vllm command on one node.**") parts nothing: the worker after it
// still joins that head, whose address it gets wrong (VL232, as without
// the captions). Two captioned alternatives each starting a Ray head are
// two clusters, not two heads of one (no VL214).
func TestCaptionKeepsRayHeadAndServe(t *testing.T) {
	const doc = "## Start\n\n```bash\nray start --head --node-ip-address=10.0.0.1 --port=6379\n```\n\n" +
		"CAPTION\n\n```bash\nvllm serve Qwen/Qwen3-235B-A22B --tensor-parallel-size 8 --pipeline-parallel-size 2 " +
		"--distributed-executor-backend ray\n```\n\n" +
		"CAPTION\n\n```bash\nray start --address=10.0.0.9:6379\n```\n"
	for _, c := range []string{"**On the head node:**", "On the head node:"} {
		got := strings.Join(lintDoc(t, "ray.md", strings.ReplaceAll(doc, "CAPTION", c), "0.18.0", diag.Warning), " ")
		if !strings.Contains(got, "VL232@16") {
			t.Errorf("caption %q: want VL232 at the worker's line 16, got %s", c, got)
		}
	}
	const alts = "## Ray\n\n<u>Two nodes:</u>\n\n```bash\nray start --head --port=6379\n" +
		"vllm serve m --tensor-parallel-size 8 --pipeline-parallel-size 2 --distributed-executor-backend ray\n```\n\n" +
		"<u>Four nodes:</u>\n\n```bash\nray start --head --port=6379\n" +
		"vllm serve m --tensor-parallel-size 8 --pipeline-parallel-size 4 --distributed-executor-backend ray\n```\n"
	if got := strings.Join(lintDoc(t, "alts.md", alts, "0.18.0", diag.Info), " "); strings.Contains(got, "VL214") {
		t.Errorf("captioned alternative Ray heads: want no VL214, got %s", got)
	}
	noCaps := strings.NewReplacer("<u>Two nodes:</u>", "Two nodes:", "<u>Four nodes:</u>", "Four nodes:").Replace(alts)
	if got := strings.Join(lintDoc(t, "alts.md", noCaps, "0.18.0", diag.Info), " "); !strings.Contains(got, "VL214") {
		t.Errorf("uncaptioned Ray heads: want VL214 (two heads of one setup), got %s", got)
	}
}

// TestImageNameRelease: with no version given, a launch is linted for the
// release its image's name gives, and a VL006 note says so. The script is
// modelled on a public SLURM launcher (find_string "vllm0141": IMG=
// "${IMG:-$WORK/containers/vllm0141rocm72.sif}", read_file id 55668585915)
// with our own command: --disable-log-requests is only deprecated in
// 0.14.1 (VL126, info) and gone in the newest release (an error there).
func TestImageNameRelease(t *testing.T) {
	const sif = "#!/bin/bash\nIMG=/scratch/containers/vllm0141rocm72.sif\n" +
		"apptainer exec --rocm $IMG vllm serve Qwen/Qwen2.5-32B-Instruct --tensor-parallel-size 8 --disable-log-requests\n"
	ds, err := Lint([]Input{{Name: "run.sh", Data: []byte(sif)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var note bool
	for _, d := range ds {
		if d.Severity > diag.Info {
			t.Errorf("linted for 0.14.1, want no error or warning, got %s", d)
		}
		note = note || d.Code == codeVersion && strings.Contains(d.Message, "linted for vLLM 0.14.1") && strings.Contains(d.Message, "vllm0141rocm72.sif")
	}
	if !note {
		t.Errorf("no VL006 note naming 0.14.1 and the image, got\n%s", ds)
	}
	// The same command under an SGLang image name gives no vLLM release:
	// linted for the newest, the removed flag is a finding above info.
	sg := strings.ReplaceAll(sif, "/scratch/containers/vllm0141rocm72.sif", "docker://lmsysorg/sglang:v0.5.6-cu129")
	if got := lintDoc(t, "sg.sh", sg, "", diag.Info); strings.Contains(strings.Join(got, " "), "VL006") {
		t.Errorf("an SGLang image gave a vLLM release: %v", got)
	}
	if got := lintDoc(t, "sg.sh", sg, "", diag.Warning); len(got) == 0 {
		t.Errorf("linted for the newest release, want the removed --disable-log-requests reported, got nothing")
	}
	// A vLLM image's own tag is the release as stated: no note.
	tag := "docker run --gpus all --ipc host vllm/vllm-openai:v0.14.1 Qwen/Qwen2.5-32B-Instruct --disable-log-requests\n"
	if got := lintDoc(t, "tag.sh", tag, "", diag.Info); strings.Contains(strings.Join(got, " "), "VL006") {
		t.Errorf("a vllm-openai tag got a VL006 note: %v", got)
	}
}

// TestInteractiveContainerShellEnv: a document's `podman run -it …
// --entrypoint=bin/bash -e NCCL_SOCKET_IFNAME=… IMAGE` is a shell its later
// commands are typed into (amd/playbooks clustering-rccl, the corpus's
// amd-playbooks-rccl-podman-shell-ray): its -e variables are theirs, so no
// VL209. A container that runs a command of its own is no such shell.
func TestInteractiveContainerShellEnv(t *testing.T) {
	const doc = "## Container\n\n```bash\nsudo podman run -it --name c --network=host --entrypoint=\"bin/bash\" " +
		"-e NCCL_SOCKET_IFNAME=enp1s0 -e GLOO_SOCKET_IFNAME=enp1s0 registry.example/ryai-vllm:latest\n```\n\n" +
		"## Cluster\n\n### Head\n\n```bash\nray start --head --port=6379 --node-ip-address=10.0.0.1 --num-gpus=1\n```\n\n" +
		"### Worker\n\n```bash\nray start --address=10.0.0.1:6379 --node-ip-address=10.0.0.2 --num-gpus=1\n```\n\n" +
		"### Serve\n\n```bash\nvllm serve Qwen/Qwen3-8B --tensor-parallel-size 2 --distributed-executor-backend ray\n```\n"
	if got := strings.Join(lintDoc(t, "doc.md", doc, "0.18.0", diag.Info), " "); strings.Contains(got, "VL209") {
		t.Errorf("commands typed into the container shell: want no VL209, got %s", got)
	}
	detached := strings.Replace(doc, "run -it", "run -d", 1)
	detached = strings.Replace(detached, `--entrypoint="bin/bash" `, "", 1)
	detached = strings.Replace(detached, "ryai-vllm:latest", "ryai-vllm:latest sleep infinity", 1)
	if got := strings.Join(lintDoc(t, "doc.md", detached, "0.18.0", diag.Info), " "); !strings.Contains(got, "VL209") {
		t.Errorf("a detached container running its own command: want VL209 (the host commands set no interface), got %s", got)
	}
}

// dsv4ListCaptions is our trimmed excerpt of vllm-ascend's
// docs/source/tutorials/models/DeepSeek-V4-Flash.md (stored commit
// a7d5869d, "5.2.2 A2 Series PD Separation Deployment", step 3): a prefill
// launcher (DP 8) and a decode launcher (DP 32), each under a list item
// that captions its block, with the document's placeholders.
const dsv4ListCaptions = "#### 5.2.2 A2 Series PD Separation Deployment\n\n" +
	"3. Start the server with the following command on each node.\n\n" +
	"    1. Prefill node\n\n" +
	"        ```shell\n" +
	"        python launch_online_dp.py --dp-size 8 --tp-size 1 --dp-size-local 8 --dp-rank-start 0 --dp-address x.x.x.x --dp-rpc-port 12321 --vllm-start-port 7100\n" +
	"        ```\n\n" +
	"    2. Decode node\n\n" +
	"        ```shell\n" +
	"        python launch_online_dp.py --dp-size 32 --tp-size 1 --dp-size-local 8 --dp-rank-start x --dp-address x.x.x.x --dp-rpc-port 12321 --vllm-start-port 7100\n" +
	"        ```\n"

// TestListItemCaptions: list items that title the block below them part
// the prefill and the decode launcher (VL202 "--data-parallel-size 32
// differs from 8" before); the same blocks under items that are sentences
// stay one setup.
func TestListItemCaptions(t *testing.T) {
	if got := lintDoc(t, "dsv4.md", dsv4ListCaptions, "0.18.0", diag.Warning); len(got) != 0 {
		t.Errorf("captioned prefill and decode: want no finding at warning or above, got %v", got)
	}
	sentences := strings.NewReplacer("1. Prefill node", "1. Run this on the prefill node.", "2. Decode node", "2. Run this on the decode node.").Replace(dsv4ListCaptions)
	if got := strings.Join(lintDoc(t, "dsv4.md", sentences, "0.18.0", diag.Warning), " "); !strings.Contains(got, "VL202") {
		t.Errorf("items that are sentences: want the launchers read as one DP deployment (VL202), got %s", got)
	}
}

// TestAscendTutorialLayouts: the layouts of vllm-ascend's tutorials
// (repository snapshot 182b75ea, Aug 2026, docs/source/tutorials/models),
// in excerpts written for the test:
//   - tabs indented under a list item are alternatives (DeepSeek-V3.1:
//     "3. run server for each node" / `=== "A3 series"`, `=== "Ascend
//     950DT series"`; 53 errors between them before);
//   - a tab titled for a node after the first is that deployment's later
//     node even when its rank is a template's $4 (Kimi-K2.5);
//   - the BF16 and W8A8 tabs each start a server on one port with `&`
//     (MiniMax-M3: VL212 between them before), and node 0's and node 1's
//     commands of one DP deployment, one after the other, use NPUs 0-7
//     each (VL229 before);
//   - a block of options alone is no command (MiniMax-M3: VL303 before);
//   - JSON settings that differ only in spacing are the same (GLM-4.x:
//     VL201 before).
func TestAscendTutorialLayouts(t *testing.T) {
	serve := func(extra string) string {
		return "        vllm serve /w --tensor-parallel-size 8 --data-parallel-size 2 --data-parallel-size-local 1 " + extra + "\n"
	}
	tabs := "## Run\n\n3. run server for each node\n\n    === \"A3 series\"\n\n        ```shell\n" +
		serve("--data-parallel-start-rank 0 --data-parallel-address 10.0.0.1 --max-num-seqs 16") +
		"        ```\n\n    === \"Ascend 950DT series\"\n\n        ```shell\n" +
		"        vllm serve /w --tensor-parallel-size 4 --data-parallel-size 4 --data-parallel-size-local 4 --data-parallel-address 10.0.0.1 --max-num-seqs 32\n" +
		"        ```\n"
	if got := lintDoc(t, "v31.md", tabs, "0.18.0", diag.Error); len(got) != 0 {
		t.Errorf("indented tabs: want no error, got %v", got)
	}
	kv := func(id string) string {
		return ` --kv-transfer-config '{"kv_connector":"MooncakeConnectorV1","kv_role":"kv_consumer","engine_id":"` + id + `"}'`
	}
	nodes := "## PD\n\n=== \"Node 0(Decode)\"\n\n    ```shell\n    vllm serve /w --data-parallel-size 32 --data-parallel-rank $4 --data-parallel-address 10.0.0.3" + kv("2") + "\n    ```\n\n" +
		"=== \"Node 1(Decode)\"\n\n    ```shell\n    vllm serve /w --data-parallel-size 32 --data-parallel-rank $4 --data-parallel-address 10.0.0.3" + kv("2") + "\n    ```\n"
	if got := strings.Join(lintDoc(t, "k25.md", nodes, "0.18.0", diag.Error), " "); strings.Contains(got, "VL223") {
		t.Errorf("Node 0 / Node 1 tabs of one decode instance: want no VL223, got %s", got)
	}
	alts := "## Single node\n\n=== \"BF16 Deployment\"\n\n```bash\nASCEND_RT_VISIBLE_DEVICES=0,1,2,3 vllm serve /w --gpu-memory-utilization 0.9 --port 11223 &\n```\n\n" +
		"=== \"W8A8 Deployment\"\n\n```bash\nASCEND_RT_VISIBLE_DEVICES=0,1,2,3 vllm serve /w8 --gpu-memory-utilization 0.9 --port 11223 &\n```\n\n" +
		"## Multi node\n\nRun on node 0:\n\n```bash\nexport ASCEND_RT_VISIBLE_DEVICES=0,1,2,3\n" +
		"vllm serve /w --data-parallel-size 2 --data-parallel-size-local 1 --data-parallel-start-rank 0 --data-parallel-address 10.0.0.1 --gpu-memory-utilization 0.94 --port 8000 &\n```\n\n" +
		"Run on node 1:\n\n```bash\nexport ASCEND_RT_VISIBLE_DEVICES=0,1,2,3\n" +
		"vllm serve /w --headless --data-parallel-size 2 --data-parallel-size-local 1 --data-parallel-start-rank 1 --data-parallel-address 10.0.0.1 --gpu-memory-utilization 0.94 &\n```\n\n" +
		"Options for video:\n\n```bash\n# one video\n--limit-mm-per-prompt '{\"image\":0,\"video\":1}'\n\n" +
		"# one image and one video\n--limit-mm-per-prompt '{\"image\":1,\"video\":1}'\n```\n"
	if got := lintDoc(t, "m3.md", alts, "0.18.0", diag.Error); len(got) != 0 {
		t.Errorf("alternative tabs, two nodes, an option block: want no error, got %v", got)
	}
	spaced := "## TP16 over two nodes\n\n### Node 0\n\n```bash\nvllm serve /w --tensor-parallel-size 8 --data-parallel-size 2 --data-parallel-size-local 1 --data-parallel-address 10.0.0.1 " +
		`--compilation-config '{"cudagraph_mode":"FULL_DECODE_ONLY", "cudagraph_capture_sizes":[1,2]}'` + "\n```\n\n### Node 1\n\n```bash\n" +
		"vllm serve /w --headless --tensor-parallel-size 8 --data-parallel-size 2 --data-parallel-size-local 1 --data-parallel-start-rank 1 --data-parallel-address 10.0.0.1 " +
		`--compilation-config '{"cudagraph_mode":"FULL_DECODE_ONLY",  "cudagraph_capture_sizes":[1,2]}'` + "\n```\n"
	if got := strings.Join(lintDoc(t, "glm.md", spaced, "0.18.0", diag.Error), " "); strings.Contains(got, "VL201") {
		t.Errorf("JSON differing in spacing: want no VL201, got %s", got)
	}
	other := strings.Replace(spaced, `"cudagraph_capture_sizes":[1,2]}'`+"\n```\n\n### Node 1", `"cudagraph_capture_sizes":[1,4]}'`+"\n```\n\n### Node 1", 1)
	if got := strings.Join(lintDoc(t, "glm.md", other, "0.18.0", diag.Error), " "); !strings.Contains(got, "VL201") {
		t.Errorf("JSON differing in content: want VL201, got %s", got)
	}
}

// TestOutputBlocksOfOtherPrograms: a ```bash block holding another
// program's timestamped log (vllm-ascend's Hunyuan-A13B tutorial: an
// AISBench run, "03/29 03:20:03 - AISBench - INFO - …", with its result
// table) or a directory listing (its Kimi-K2-Thinking tutorial: "." and
// "|-- config.json") or a grid table (its Qwen3-Omni tutorial's evalscope
// result, "+----+") is output, not commands: no VL303 "line starts with
// ---------", no VL001 "`|` can only immediately follow a statement".
func TestOutputBlocksOfOtherPrograms(t *testing.T) {
	const doc = "## Accuracy\n\n```bash\n" +
		"03/29 03:20:03 - AISBench - INFO - Running 1-th replica of evaluation\n" +
		"03/29 03:20:04 - AISBench - INFO - Summarizing evaluation results...\n" +
		"dataset    version    metric    mode      vllm-api-general-chat\n" +
		"---------  ---------  --------  ------  -----------------------\n" +
		"gsm8k      7cd45e     accuracy  gen                       94.77\n" +
		"03/29 03:20:04 - AISBench - INFO - write csv to /data/outputs/summary.csv\n```\n\n" +
		"## Files\n\n```bash\n.\n|-- chat_template.jinja\n|-- config.json\n`-- tokenizer_config.json\n```\n\n" +
		"## Score\n\n```bash\n+-------+------------+\n| Model | Dataset    |\n+=======+============+\n| omni  | omni_bench |\n+-------+------------+\n```\n"
	if got := lintDoc(t, "out.md", doc, "0.18.0", diag.Warning); len(got) != 0 {
		t.Errorf("output blocks: want no finding at warning or above, got %v", got)
	}
}
