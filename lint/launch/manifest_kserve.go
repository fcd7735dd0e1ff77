package launch

import (
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// kserveSource cites what KServe's LLMInferenceService controller runs.
// The config templates (config/llmisvcconfig/config-llm-template.yaml and
// config-llm-*-worker-data-parallel.yaml, kserve/kserve at aaac4e29) give the
// container named "main" a bash script ending in `eval "exec vllm serve
// /mnt/models --served-model-name <spec.model.name> ... --port 8000
// [--tensor-parallel-size <parallelism.tensor>] [data-parallel flags]
// ${VLLM_ADDITIONAL_ARGS} $@"`; with a `worker` the pods form a
// LeaderWorkerSet of data/dataLocal pods, the leader at start rank 0 and
// worker i at i × dataLocal, --headless.
const kserveMain, kserveArgsEnv = "main", "VLLM_ADDITIONAL_ARGS"

// kserveRoles expands an LLMInferenceService: the decode (or only) pool
// from spec.template (+ spec.worker) and the prefill pool from
// spec.prefill.template (+ spec.prefill.worker), each a deployment of its
// own.
func kserveRoles(src *source, doc *yaml.Node) []podRole {
	spec := get(doc, "spec")
	name := get(spec, "model", "name")
	out := kservePool(src, spec, spec, name, "")
	if pre := get(spec, "prefill"); pre != nil && pre.Kind == yaml.MappingNode {
		out = append(out, kservePool(src, pre, spec, name, "prefill")...)
	}
	return out
}

// kservePool expands one pool: its template, and its worker pods when it
// spans nodes. The pool's parallelism falls back to the service's.
func kservePool(src *source, pool, spec, model *yaml.Node, group string) []podRole {
	par := get(pool, "parallelism")
	if par == nil {
		par = get(spec, "parallelism")
	}
	lead := get(pool, "template")
	if lead == nil && group == "" {
		return nil
	}
	worker := get(pool, "worker")
	dl, dlErr := strconv.Atoi(scalar(par, "dataLocal"))
	dp, dpErr := strconv.Atoi(scalar(par, "data"))
	if dlErr != nil || dl < 1 {
		dl = 1
	}
	pods := 0 // LeaderWorkerSet size, 0 = unknown
	if dpErr == nil && dp >= dl && dp%dl == 0 && dp/dl <= maxGroupSize {
		pods = dp / dl
	}
	role := func(spec *yaml.Node, r string, idx int) podRole {
		// not strict: the template's script sets and exports more (DP_ADDRESS,
		// START_RANK, NCCL_IB_HCA ... from KSERVE_INFER_ROCE)
		p := podRole{spec: spec, role: r, group: group, indexes: []int{idx}}
		p.op = &operatorPod{main: kserveMain, argsEnv: kserveArgsEnv,
			script: kserveScript(src, model, par, worker != nil, r == "worker", idx, dl, nodePos(par, pool))}
		if worker != nil {
			p.lws, p.size = true, pods
		}
		return p
	}
	if worker == nil {
		r := role(lead, "", -1)
		r.lws = false
		return []podRole{r}
	}
	out := []podRole{role(lead, "leader", 0)}
	if pods == 0 {
		return append(out, role(worker, "worker", -1))
	}
	for i := 1; i < pods; i++ {
		out = append(out, role(worker, "worker", i))
	}
	return out
}

// kserveScript is the vllm serve line of KServe's template for one pod:
// data parallel over a LeaderWorkerSet when the pool has workers.
func kserveScript(src *source, model, par *yaml.Node, multi, worker bool, idx, dl int, base Pos) *Value {
	var b builder
	at := func(n *yaml.Node, text string) {
		p := base
		if n != nil {
			p = Pos{Line: n.Line, Col: n.Column}
		}
		b.addValue(knownValue(text, p))
	}
	at(nil, "vllm serve /mnt/models --port 8000")
	if model != nil && model.Kind == yaml.ScalarNode && model.Value != "" {
		at(nil, " --served-model-name ")
		b.addValue(quoteWord(scalarValue(src, model)))
	}
	if multi && scalar(par, "expert") == "true" {
		at(get(par, "expert"), " --enable-expert-parallel")
	}
	if t := get(par, "tensor"); t != nil && t.Kind == yaml.ScalarNode {
		at(t, " --tensor-parallel-size ")
		b.addValue(scalarValue(src, t))
	}
	if p := get(par, "pipeline"); p != nil && p.Kind == yaml.ScalarNode {
		at(p, " --pipeline-parallel-size ")
		b.addValue(scalarValue(src, p))
	}
	if multi {
		data := scalar(par, "data")
		if data == "" {
			data = "1"
		}
		at(get(par, "data"), " --data-parallel-size "+data+" --data-parallel-size-local "+strconv.Itoa(dl))
		at(nil, " --data-parallel-address ${DP_ADDRESS} --data-parallel-rpc-port 5555")
		switch {
		case !worker:
			at(nil, " --data-parallel-start-rank 0")
		case idx > 0:
			at(nil, " --data-parallel-start-rank "+strconv.Itoa(idx*dl)+" --headless")
		default:
			at(nil, " --data-parallel-start-rank $START_RANK --headless")
		}
	}
	v := b.value(base)
	return &v
}

// nodePos is where the first of the nodes present starts: what the
// operator derives from it is reported there.
func nodePos(ns ...*yaml.Node) Pos {
	for _, n := range ns {
		if n != nil {
			return Pos{Line: n.Line, Col: n.Column}
		}
	}
	return Pos{}
}

// quoteWord single-quotes a value for the shell, keeping its positions.
func quoteWord(v Value) Value {
	if strings.ContainsAny(v.Text, "'") {
		return v
	}
	var b builder
	b.addByte('\'', v.Pos)
	b.addValue(v)
	b.addByte('\'', v.PosAt(len(v.Text)-1))
	out := b.value(v.Pos)
	out.Known = v.Known
	return out
}
