package logs

import (
	"maps"
	"strings"
)

// argFields maps vLLM argument and config names onto the figures the
// report shows. "max_seq_len" is the engine-config name of max_model_len.
var argFields = map[string]field{
	"model": fModel, "model_tag": fModel,
	"max_model_len": fMaxModelLen, "max_seq_len": fMaxModelLen,
	"tensor_parallel_size": fTP, "pipeline_parallel_size": fPP,
	"data_parallel_size": fDP, "data_parallel_size_local": fDPLocal,
	"enable_expert_parallel": fEP, "gpu_memory_utilization": fUtil,
	"block_size": fBlockSize, "max_num_batched_tokens": fMaxBatched,
	"kv_cache_dtype": fKVCacheDType, "dtype": fDType, "quantization": fQuantization,
	"enforce_eager": fEnforceEager, "data_parallel_address": fDPAddress,
	"data_parallel_rpc_port": fDPRPCPort, "all2all_backend": fAll2All,
	"decode_context_parallel_size": fDCP,
}

// numericFields are read as numbers; the rest as text.
var numericFields = map[field]bool{fMaxModelLen: true, fTP: true, fPP: true, fDP: true, fDPLocal: true,
	fUtil: true, fBlockSize: true, fMaxBatched: true, fDPRPCPort: true, fDCP: true}

// applyArgs records the command-line arguments a process printed.
func applyArgs(c *ctx, m map[string]string) {
	if c.p.args == nil {
		c.p.args = m
		c.p.argsLine = c.l.no
	} else if !maps.Equal(c.p.args, m) && c.p.argsOther == 0 {
		// One process, two different argument sets in one start-up: two
		// servers' lines mixed under one prefix. Neither set can be told
		// to be a given engine's (argsNotes).
		c.p.argsOther = c.l.no
	}
	applyKnown(c, m)
	checkDPAddress(c, m)
	c.phase(phStart)
}

// applyConfig records the engine-config line of an engine.
func applyConfig(c *ctx, m map[string]string) {
	if c.p.config == nil {
		c.p.config = m
	}
	applyKnown(c, m)
}

func applyKnown(c *ctx, m map[string]string) {
	for k, v := range m {
		f, ok := argFields[k]
		if !ok || v == "None" || v == "" {
			continue
		}
		if numericFields[f] {
			c.num(f, []byte(v))
			continue
		}
		switch v {
		case "True":
			v = "true"
		case "False":
			v = "false"
		}
		c.p.facts.setStr(f, v, c.l.no)
	}
	applyKVTransfer(c, m["kv_transfer_config"])
	// "model_tag" and "model" name the same thing; prefer the explicit model.
	if v, ok := m["model"]; ok && v != "None" && c.p.facts[fModel].str != v && strings.TrimSpace(v) != "" {
		c.p.facts[fModel] = val{str: clip(v, maxValueLen), set: true, line: c.l.no}
	}
}
