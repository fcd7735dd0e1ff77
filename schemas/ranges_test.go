package schemas

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// rangedKeys maps the spec keys that become numeric `vllm serve` flags to
// those flags. Every integer or number property of the schema's vllm and
// parallelism objects must appear here, so a new one is checked too.
var rangedKeys = map[string]map[string]string{
	"vllm": {
		"gpu_memory_utilization":       "gpu-memory-utilization",
		"max_num_seqs":                 "max-num-seqs",
		"max_num_batched_tokens":       "max-num-batched-tokens",
		"block_size":                   "block-size",
		"decode_context_parallel_size": "decode-context-parallel-size",
		"port":                         "port",
		"rpc_port":                     "data-parallel-rpc-port",
		"api_server_count":             "api-server-count",
		"num_redundant_experts":        "num-redundant-experts",
	},
	"parallelism": {
		"tensor":   "tensor-parallel-size",
		"pipeline": "pipeline-parallel-size",
		"data":     "data-parallel-size",
	},
}

// vlaunchKeys are numeric keys of those objects that are vlaunch's own,
// no vLLM flag, with why.
var vlaunchKeys = map[string]map[string]string{
	"parallelism": {"replicas": "independent `vllm serve` deployments behind a load balancer; each replica's flags are the layout's"},
}

// TestRangesMatchVLLM: the schema bounds of every numeric key that maps to
// a vLLM flag are exactly the flag's range in package vllm (the one place
// that knows what vLLM accepts), so the two cannot drift apart.
func TestRangesMatchVLLM(t *testing.T) {
	root := loadSchema(t)
	defs := root["definitions"].(node)
	for def, keys := range rangedKeys {
		props := resolve(root, defs[def].(node))["properties"].(node)
		for key, p := range props {
			typ := p.(node)["type"]
			if (typ == "integer" || typ == "number") && keys[key] == "" && vlaunchKeys[def][key] == "" {
				t.Errorf("%s.%s is numeric but maps to no vLLM flag in rangedKeys", def, key)
			}
		}
		for key, flag := range keys {
			prop, ok := props[key].(node)
			if !ok {
				t.Errorf("%s.%s: not in the schema", def, key)
				continue
			}
			r, ok := vllm.FlagRange(flag)
			if !ok {
				t.Errorf("%s.%s: vllm has no range for --%s", def, key, flag)
				continue
			}
			if got := schemaRange(prop); got != r.String() {
				t.Errorf("%s.%s: schema allows %s, vLLM's --%s %s", def, key, got, flag, r)
			}
		}
	}
}

// schemaRange writes a property's JSON-Schema bounds in the interval
// notation of vllm.Range.String.
func schemaRange(p node) string {
	r := vllm.Range{Min: math.Inf(-1), Max: math.Inf(1)}
	if v, ok := p["minimum"].(float64); ok {
		r.Min = v
	}
	if v, ok := p["exclusiveMinimum"].(float64); ok {
		r.Min, r.MinOpen = v, true
	}
	if v, ok := p["maximum"].(float64); ok {
		r.Max = v
	}
	if v, ok := p["exclusiveMaximum"].(float64); ok {
		r.Max, r.MaxOpen = v, true
	}
	return r.String()
}

// TestMaxReplicas: spec.MaxReplicas, the bound the layout search keeps to,
// is the schema's maximum of parallelism.replicas and of a pool's instances.
func TestMaxReplicas(t *testing.T) {
	var root map[string]interface{}
	if err := json.Unmarshal(Deployment, &root); err != nil {
		t.Fatal(err)
	}
	n := 0
	var walk func(v interface{})
	walk = func(v interface{}) {
		switch x := v.(type) {
		case map[string]interface{}:
			for k, c := range x {
				if k == "replicas" || k == "instances" {
					if m, ok := c.(map[string]interface{}); ok && m["maximum"] != nil {
						n++
						if got := m["maximum"].(float64); got != spec.MaxReplicas {
							t.Errorf("%s: schema maximum %v, spec.MaxReplicas %d", k, got, spec.MaxReplicas)
						}
					}
				}
				walk(c)
			}
		case []interface{}:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(root)
	if n < 2 {
		t.Errorf("found %d replicas/instances bounds, want both", n)
	}
}
