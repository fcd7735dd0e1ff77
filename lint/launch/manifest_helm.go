package launch

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"gopkg.in/yaml.v3"
)

// Helm values files of two charts that start vLLM: they hold no manifest,
// the chart's templates turn them into one, so the linter renders the vLLM
// container the way the template does and lints that.
//
// vLLM production-stack (github.com/vllm-project/production-stack
// helm/templates/deployment-vllm-multi.yaml and helm/templates/_helpers.tpl
// at a6c01db05f65): one Deployment per servingEngineSpec.modelSpec[] entry
// (enabled != false, no raySpec.enabled), replicaCount pods running
// `vllm serve <modelURL> --host 0.0.0.0 --port <containerPort|8000>` with
// flags from vllmConfig (enableChunkedPrefill, enablePrefixCaching,
// maxModelLen, dtype, tensorParallelSize, maxNumSeqs, gpuMemoryUtilization,
// maxLoras, runner, convert, extraArgs), enableLoRA, enableTool,
// toolCallParser, modelRevision, lmcacheConfig (its --kv-transfer-config,
// and CUDA_VISIBLE_DEVICES from lmcacheConfig.cudaVisibleDevices) and
// chatTemplate; image <repository>:<tag>; env servingEngineSpec.env then
// modelSpec.env; GPUs
// requestGPU (resource requestGPUType, default nvidia.com/gpu) unless
// modelSpec.resources is given; /dev/shm an emptyDir.
//
// llm-d-modelservice (github.com/llm-d-incubation/llm-d-modelservice
// charts/llm-d-modelservice/templates/_helpers.tpl at 3051935eb5a4):
// decode and prefill (create != false) each run `replicas` pods; a
// container with modelCommand vllmServe runs `vllm serve <model from
// modelArtifacts.uri> --port <port> [--tensor-parallel-size T]
// [--data-parallel-size D] [--data-parallel-size-local DL]
// --served-model-name <modelArtifacts.name>` then its args (imageDefault:
// the same after --model, as the image's entrypoint's arguments); the
// container gets TP x DP-local GPUs (numGpuPerWorker) unless its resources
// name them, and DP_SIZE, TP_SIZE, DP_SIZE_LOCAL (parallelismEnv). With
// multinode: true the chart writes LeaderWorkerSets instead, not rendered.

// CodeHelmIgnored is a values key the chart does not read where it is written.
const CodeHelmIgnored = codes.VLHelmIgnored

// Chart sources, for messages.
const (
	pstackTemplate = "production-stack helm/templates/deployment-vllm-multi.yaml@a6c01db05f65"
	llmdTemplate   = "llm-d-modelservice charts/llm-d-modelservice/templates/_helpers.tpl@3051935eb5a4"
)

// helmValues reports and lints a values file of a chart above.
func (fe *frontEnd) helmValues(src *source, doc *yaml.Node) bool {
	if scalar(doc, "kind") != "" {
		return false
	}
	if specs := get(doc, "servingEngineSpec", "modelSpec"); specs != nil && specs.Kind == yaml.SequenceNode {
		fe.productionStack(src, doc, specs)
		return true
	}
	if llmdValues(doc) {
		fe.llmdModelService(src, doc)
		return true
	}
	return false
}

// synth is a YAML scalar at a values node's position.
func synth(at *yaml.Node, text string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Value: text, Line: at.Line, Column: at.Column}
}

// mapping builds a YAML mapping from key/value pairs.
func mapping(at *yaml.Node, kv ...any) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Line: at.Line, Column: at.Column}
	for i := 0; i+1 < len(kv); i += 2 {
		v, ok := kv[i+1].(*yaml.Node)
		if !ok || v == nil {
			continue
		}
		m.Content = append(m.Content, synth(at, kv[i].(string)), v)
	}
	return m
}

// seq builds a YAML sequence.
func seq(at *yaml.Node, items []*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Line: at.Line, Column: at.Column, Content: items}
}

// pstackVLLMKeys are the vllmConfig keys of production-stack's
// values.schema.json (a6c01db05f65): set directly under a modelSpec entry
// they are read by nothing (the schema allows unknown keys).
var pstackVLLMKeys = []string{"convert", "dtype", "enableChunkedPrefill", "enablePrefixCaching", "extraArgs", "gpuMemoryUtilization", "maxLoras", "maxModelLen", "maxNumSeqs", "runner", "tensorParallelSize", "pipelineParallelSize"}

// productionStack renders each modelSpec entry's vLLM container.
func (fe *frontEnd) productionStack(src *source, doc, specs *yaml.Node) {
	engine := get(doc, "servingEngineSpec")
	if scalar(engine, "enableEngine") == "false" {
		return
	}
	port := "8000"
	if p := scalar(engine, "containerPort"); p != "" {
		port = p
	}
	for idx, m := range specs.Content {
		if m.Kind != yaml.MappingNode || scalar(m, "enabled") == "false" || scalar(m, "raySpec", "enabled") == "true" {
			continue
		}
		fe.pstackIgnored(m)
		var args []*yaml.Node
		add := func(at *yaml.Node, words ...string) {
			for _, w := range words {
				args = append(args, synth(at, w))
			}
		}
		if u := get(m, "modelURL"); u != nil {
			args = append(args, u)
		} else {
			add(m, "$(MODEL_URL)")
		}
		add(m, "--host", "0.0.0.0", "--port", port)
		if scalar(m, "enableLoRA") == "true" {
			add(get(m, "enableLoRA"), "--enable-lora")
		}
		if scalar(m, "enableTool") == "true" {
			add(get(m, "enableTool"), "--enable-auto-tool-choice")
		}
		if v := get(m, "toolCallParser"); v != nil {
			add(v, "--tool-call-parser")
			args = append(args, v)
		}
		if vc := get(m, "vllmConfig"); vc != nil && vc.Kind == yaml.MappingNode && len(vc.Content) > 0 {
			args = append(args, pstackVLLMArgs(vc)...)
		}
		if v := get(m, "modelRevision"); v != nil {
			add(v, "--revision")
			args = append(args, v)
		}
		if lc := get(m, "lmcacheConfig"); lc != nil && scalar(lc, "enabled") == "true" {
			role := "kv_both"
			if r := scalar(lc, "kvRole"); r != "" {
				role = r
			}
			add(lc, "--kv-transfer-config", pstackKVConfig(m, lc, role))
		}
		if v := get(m, "chatTemplate"); v != nil {
			add(v, "--chat-template", "/templates/"+v.Value)
		}
		image := scalar(m, "repository") + ":" + scalar(m, "tag")
		var env []*yaml.Node
		for _, l := range []*yaml.Node{get(engine, "env"), get(m, "env")} {
			if l != nil && l.Kind == yaml.SequenceNode {
				env = append(env, l.Content...)
			}
		}
		if d := get(m, "lmcacheConfig", "cudaVisibleDevices"); d != nil {
			// after both env lists, whether or not LMCache is enabled
			env = append(env, mapping(d, "name", synth(d, "CUDA_VISIBLE_DEVICES"), "value", d))
		}
		resources := get(m, "resources")
		if resources == nil {
			if g := get(m, "requestGPU"); g != nil && g.Value != "0" {
				kind := "nvidia.com/gpu"
				if t := scalar(m, "requestGPUType"); t != "" {
					kind = t
				}
				resources = mapping(g, "limits", mapping(g, kind, g))
			}
		}
		name := get(m, "name")
		if name == nil {
			name = m
		}
		c := mapping(name, "name", synth(name, "vllm"), "image", synth(name, image),
			"command", seq(name, []*yaml.Node{synth(name, "vllm"), synth(name, "serve")}),
			"args", seq(name, args), "env", seq(name, env), "resources", resources)
		tag := fmt.Sprintf("helm production-stack/%s#%d", scalar(m, "name"), idx)
		fe.helmContainer(src, c, tag, scalar(m, "replicaCount"))
	}
}

// pstackKVConfig is the --kv-transfer-config the template writes for an
// enabled lmcacheConfig: with an enablePD key, LMCacheConnectorV1 with
// kv_connector_extra_config {discard_partial_chunks: false,
// lmcache_rpc_port: <nixlRole>}; else the v0 LMCacheConnector when
// vllmConfig.v0 is 1; else LMCacheConnectorV1 alone.
func pstackKVConfig(m, lc *yaml.Node, role string) string {
	if get(lc, "enablePD") != nil {
		rpc, _ := json.Marshal(scalar(lc, "nixlRole"))
		return `{"kv_connector":"LMCacheConnectorV1","kv_role":"` + role + `","kv_connector_extra_config":{"discard_partial_chunks": false, "lmcache_rpc_port": ` + string(rpc) + `}}`
	}
	conn := "LMCacheConnectorV1"
	if scalar(m, "vllmConfig", "v0") == "1" {
		conn = "LMCacheConnector"
	}
	return `{"kv_connector":"` + conn + `","kv_role":"` + role + `"}`
}

// pstackVLLMArgs renders a vllmConfig block as the template does.
func pstackVLLMArgs(vc *yaml.Node) []*yaml.Node {
	var args []*yaml.Node
	flag := func(key, name string) {
		if v := get(vc, key); v != nil {
			args = append(args, synth(v, name), v)
		}
	}
	if v := get(vc, "enableChunkedPrefill"); v != nil {
		w := "--no-enable-chunked-prefill"
		if v.Value == "true" {
			w = "--enable-chunked-prefill"
		}
		args = append(args, synth(v, w))
	}
	if v := get(vc, "enablePrefixCaching"); v != nil && v.Value == "true" {
		args = append(args, synth(v, "--enable-prefix-caching"))
	} else {
		args = append(args, synth(vc, "--no-enable-prefix-caching"))
	}
	flag("maxModelLen", "--max-model-len")
	flag("dtype", "--dtype")
	flag("tensorParallelSize", "--tensor-parallel-size")
	flag("maxNumSeqs", "--max-num-seqs")
	flag("gpuMemoryUtilization", "--gpu_memory_utilization")
	flag("maxLoras", "--max_loras")
	flag("runner", "--runner")
	flag("convert", "--convert")
	if l := get(vc, "extraArgs"); l != nil && l.Kind == yaml.SequenceNode {
		args = append(args, l.Content...)
	}
	return args
}

// pstackIgnored warns about vllmConfig keys written directly under a
// modelSpec entry: the template reads them only from vllmConfig, so the
// engine runs without them (tensorParallelSize: TP 1).
func (fe *frontEnd) pstackIgnored(m *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		for _, v := range pstackVLLMKeys {
			if k.Value != v {
				continue
			}
			fe.diags = append(fe.diags, diag.Diagnostic{Code: CodeHelmIgnored, Severity: diag.Warning, File: fe.file, Line: k.Line, Col: k.Column,
				Message: fmt.Sprintf("modelSpec[].%s is not read by production-stack's chart (%s reads it only as vllmConfig.%s): the engine runs without it", k.Value, pstackTemplate, k.Value),
				Hint:    "move it under vllmConfig: (servingEngineSpec.modelSpec[].vllmConfig." + k.Value + ")"})
		}
	}
}

// llmdValues reports an llm-d-modelservice values file: a decode or
// prefill section with containers, and modelArtifacts.
func llmdValues(doc *yaml.Node) bool {
	if get(doc, "modelArtifacts") == nil {
		return false
	}
	for _, role := range []string{"decode", "prefill"} {
		if cs := get(doc, role, "containers"); cs != nil && cs.Kind == yaml.SequenceNode {
			return true
		}
	}
	return false
}

// llmdModelService renders the decode and prefill containers.
func (fe *frontEnd) llmdModelService(src *source, doc *yaml.Node) {
	if scalar(doc, "multinode") == "true" {
		return // a LeaderWorkerSet per role (decode-lws.yaml): not rendered here
	}
	uri := get(doc, "modelArtifacts", "uri")
	for _, role := range []string{"prefill", "decode"} {
		sec := get(doc, role)
		if sec == nil || scalar(sec, "create") == "false" {
			continue
		}
		cs := get(sec, "containers")
		if cs == nil || cs.Kind != yaml.SequenceNode {
			continue
		}
		par := get(sec, "parallelism")
		tp := atoiOr(scalar(par, "tensor"), 1)
		dp, dpl := llmdDP(par)
		port := scalar(doc, "routing", "servicePort")
		if role == "decode" && scalar(doc, "routing", "proxy", "enabled") != "false" {
			port = scalar(doc, "routing", "proxy", "targetPort")
		}
		for idx, c := range cs.Content {
			mc := scalar(c, "modelCommand")
			if mc != "vllmServe" && mc != "imageDefault" {
				continue // custom: the container's own command, not rendered here
			}
			at := get(c, "modelCommand")
			var args []*yaml.Node
			if mc == "imageDefault" {
				args = append(args, synth(at, "--model"))
			}
			args = append(args, llmdModel(uri, at))
			if port != "" {
				args = append(args, synth(at, "--port"), synth(at, port))
			}
			if tp > 1 {
				args = append(args, synth(get(par, "tensor"), "--tensor-parallel-size"), synth(get(par, "tensor"), strconv.Itoa(tp)))
			}
			if dp > 1 {
				args = append(args, synth(par, "--data-parallel-size"), synth(par, strconv.Itoa(dp)))
			}
			if dpl > 1 {
				args = append(args, synth(par, "--data-parallel-size-local"), synth(par, strconv.Itoa(dpl)))
			}
			if n := get(doc, "modelArtifacts", "name"); n != nil {
				args = append(args, synth(n, "--served-model-name"), n)
			}
			if l := get(c, "args"); l != nil && l.Kind == yaml.SequenceNode {
				args = append(args, l.Content...)
			}
			r := mapping(c)
			for i := 0; i+1 < len(c.Content); i += 2 {
				switch c.Content[i].Value {
				case "command", "args", "modelCommand", "env":
				default:
					r.Content = append(r.Content, c.Content[i], c.Content[i+1])
				}
			}
			if mc == "vllmServe" {
				r.Content = append(r.Content, synth(at, "command"), seq(at, []*yaml.Node{synth(at, "vllm"), synth(at, "serve")}))
			}
			// parallelismEnv: DP_SIZE, TP_SIZE, DP_SIZE_LOCAL, after the
			// container's own env.
			env := []*yaml.Node{}
			if l := get(c, "env"); l != nil && l.Kind == yaml.SequenceNode {
				env = append(env, l.Content...)
			}
			for _, e := range [][2]string{{"DP_SIZE", strconv.Itoa(dp)}, {"TP_SIZE", strconv.Itoa(tp)}, {"DP_SIZE_LOCAL", strconv.Itoa(dpl)}} {
				env = append(env, mapping(at, "name", synth(at, e[0]), "value", synth(at, e[1])))
			}
			r.Content = append(r.Content, synth(at, "env"), seq(at, env))
			r.Content = append(r.Content, synth(at, "args"), seq(at, args))
			if g, _ := containerGPUs(c); g == 0 && scalar(doc, "accelerator", "type") != "cpu" {
				r.Content = append(r.Content, synth(at, "resources"), mapping(at, "limits", mapping(at, "nvidia.com/gpu", synth(at, strconv.Itoa(tp*dpl)))))
			}
			tag := fmt.Sprintf("helm llm-d-modelservice/%s#%d", role, idx)
			fe.helmContainer(src, r, tag, scalar(sec, "replicas"))
		}
	}
}

// llmdDP is the chart's dataParallelism and dataLocalParallelism.
func llmdDP(par *yaml.Node) (dp, dpl int) {
	d, dl, w := atoiOr(scalar(par, "data"), 0), atoiOr(scalar(par, "dataLocal"), 0), atoiOr(scalar(par, "workers"), 0)
	switch {
	case d > 0:
		dp = d
	case dl > 0 && w > 0:
		dp = dl * w
	case dl > 0:
		dp = dl
	default:
		dp = 1
	}
	switch {
	case dl > 0:
		dpl = dl
	case d > 0 && w > 0:
		dpl = d / w
	case d > 0:
		dpl = d
	default:
		dpl = 1
	}
	return dp, dpl
}

// llmdModel is the model argument argsByProtocol writes for the uri: an hf://
// repository, a pvc:// path under /model-cache (modelArtifacts.mountPath's
// default is not read here: the path's last part is what matters).
func llmdModel(uri, at *yaml.Node) *yaml.Node {
	if uri == nil {
		return synth(at, "$(MODEL)")
	}
	proto, rest, ok := strings.Cut(uri.Value, "://")
	switch {
	case ok && proto == "hf":
		return synth(uri, rest)
	case ok && proto == "pvc+hf":
		parts := strings.Split(rest, "/")
		if len(parts) >= 2 {
			return synth(uri, parts[len(parts)-2]+"/"+parts[len(parts)-1])
		}
	case ok && proto == "pvc":
		_, path, _ := strings.Cut(rest, "/")
		return synth(uri, "/model-cache/"+path)
	}
	return synth(uri, "$(MODEL)")
}

// helmContainer lints a rendered container as a Deployment's.
func (fe *frontEnd) helmContainer(src *source, c *yaml.Node, tag, replicas string) {
	spec := mapping(c, "containers", seq(c, []*yaml.Node{c}))
	n0 := len(fe.invs)
	fe.container(src, podRole{spec: spec}, c, tag)
	copies := atoiOr(replicas, 1)
	for _, inv := range fe.invs[n0:] {
		inv.Copies = copies
	}
}

// atoiOr reads a count, def when absent or not a number.
func atoiOr(s string, def int) int {
	if n, err := strconv.Atoi(strings.Trim(s, `"'`)); err == nil {
		return n
	}
	return def
}
