package validate

import (
	"reflect"
	"strconv"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkPDPairing: the two pools' engines must lay the KV cache out so the
// connector can pair them (SPEC128): tensor sizes, block sizes, KV-cache
// dtype and speculation, by release (the facts: vllm/facts_pd.go).
func checkPDPairing(c *checker) {
	pre, dec := c.roles[0], c.roles[1]
	v := c.rel.Version
	pt, dt := pre.Layout.TP, dec.Layout.TP
	tpPath := c.pdPath("parallelism", "tensor")
	heads, mla := 0, false
	if c.model != nil {
		heads, mla = c.model.NumKVHeads, c.model.IsMLA()
	}
	// The connector-aware decision plan pairs its candidates by too.
	tp := vllm.PDTPPairing(c.d.Disaggregation.Connector, v, pt, dt, heads, mla)
	if tp.Mooncake {
		checkMooncakeTP(c, pt, dt, heads, tp.Moon, tpPath)
	} else {
		checkNixlTP(c, pt, dt, tp.Nixl, tpPath)
	}
	pb, db := pre.Engine.BlockSize.Value, dec.Engine.BlockSize.Value
	bPath := c.pdPath("vllm", "block_size")
	switch vllm.NixlBlockSizes(v, pb, db) {
	case vllm.Absent:
		c.errorf(CodePDPairing, bPath, "use one block size in both pools (or, from 0.11.1 (#26759), a prefill block that divides the decode block)",
			"prefill block size %d and decode block size %d: vLLM %s's NIXL connector cannot transfer between them", pb, db, c.rel)
	case vllm.Maybe:
		c.add(diag.Info, CodePDPairing, bPath, "use one block size in both pools to be sure",
			"prefill block size %d and decode block size %d: NIXL transfers between them from #26759, whose first release (%s) is not confirmed", pb, db, vllm.NixlBlockHeteroFrom())
	}
	if pk, dk := pre.Engine.KVCacheDType.Value, dec.Engine.KVCacheDType.Value; pk != dk {
		c.errorf(CodePDPairing, c.pdPath("vllm", "kv_cache_dtype"), "use one kv_cache_dtype in both pools",
			"prefill KV cache is %s and decode KV cache is %s: the decode engine reads the prefill engine's blocks as stored", pk, dk)
	}
	if !reflect.DeepEqual(pre.Spec.VLLM.Speculative, dec.Spec.VLLM.Speculative) {
		c.errorf(CodePDPairing, c.pdPath("vllm", "speculative"), "give both pools the same vllm.speculative",
			"the pools' speculative decoding differs: prefill and decode must use the same speculation configuration (NIXL compatibility matrix)")
	}
	checkPDDCP(c)
}

// checkNixlTP reports NIXL's tensor-size rule (vllm.NixlTPPairing), which
// validate applies to every connector but MooncakeConnector.
func checkNixlTP(c *checker, pt, dt int, pair vllm.TPPairing, tpPath []string) {
	switch {
	case pair.NotDivisible:
		c.errorf(CodePDPairing, tpPath, "make one pool's tensor size a multiple of the other's",
			"prefill TP %d and decode TP %d: neither divides the other, and NIXL requires it (\"is not divisible by remote tensor parallel size\")", pt, dt)
	case pair.PrefillLarger && pair.Pairs == vllm.Absent:
		c.errorf(CodePDPairing, tpPath, "use decode TP >= prefill TP, or a release with "+vllm.NixlTPPairingFix,
			"prefill TP %d is larger than decode TP %d: vLLM %s's NIXL connector %s", pt, dt, c.rel, vllm.NixlPrefillLargerFailure(c.rel.Version, pt, dt))
	case pair.PrefillLarger:
		c.add(diag.Info, CodePDPairing, tpPath, "use decode TP >= prefill TP to be sure",
			"prefill TP %d is larger than decode TP %d: NIXL pairs them from %s, whose first release is inferred, not confirmed", pt, dt, vllm.NixlTPPairingFix)
	}
}

// checkPDDCP: how the connector hands the KV over when a pool runs decode
// context parallelism (vllm.NixlDCPIn, vllm.KVTransferDCPSource). With a
// release that has PR #50611 NIXL refuses at start-up a pool whose dcp is
// neither 1 nor its tensor size, dcp > 1 on a model without MLA, and dcp >
// 1 under NixlPushConnector (errors); a release before it reads an MLA
// rank's KV as if every TP rank held all of it, which DCP's sharding breaks
// (a warning: vLLM starts, the pairing is not one it supports); between
// them, or with a connector other than NIXL, what happens is not known.
func checkPDDCP(c *checker) {
	conn, ok := vllm.KVConnectorNamed(c.d.Disaggregation.Connector)
	if !ok {
		return
	}
	aware := vllm.NixlDCPIn(c.rel.Version).Aware
	for i, role := range spec.Roles {
		dep := c.roles[i]
		tp, dcp := dep.Layout.TP, dep.Engine.DCP.Value
		if dcp <= 1 {
			continue
		}
		path := p("vllm", "decode_context_parallel_size")
		if own := p("disaggregation", role, "vllm", "decode_context_parallel_size"); c.written(own) {
			path = own
		}
		if !vllm.IsNixl(conn.Name) {
			c.add(diag.Info, CodePDPairing, path, "",
				"%s pool: decode_context_parallel_size %d under %s: whether the connector moves a DCP-sharded KV cache is not known to vlaunch (only NIXL's handling is, %s)", role, dcp, conn.Name, vllm.KVTransferDCPFix)
			continue
		}
		m := c.model
		problem := vllm.NixlDCPProblem(conn.Name, tp, dcp, m.IsMLA(), m.Mamba != nil || m.GDN != nil || m.KimiLinear != nil)
		switch {
		case aware == vllm.Absent:
			c.warnf(CodePDPairing, path, "use a release with "+vllm.KVTransferDCPFix+", or leave decode_context_parallel_size out of this pool",
				"%s pool: decode_context_parallel_size %d: vLLM %s's NIXL connector predates PR #50611 and reads an MLA rank's KV as if every TP rank held all of it; DCP shards it by token, so the hand-off is not one this release supports", role, dcp, c.rel)
		case problem != "" && aware == vllm.Present:
			c.errorf(CodePDPairing, path, "use decode_context_parallel_size 1 or the pool's tensor size ("+itoa(tp)+"), on an MLA model without Mamba/linear-attention layers, with NixlConnector",
				"%s pool: tensor %d, decode_context_parallel_size %d: vLLM %s refuses it at start-up (%q, PR #50611)", role, tp, dcp, c.rel, problem)
		case problem != "":
			c.warnf(CodePDPairing, path, "use decode_context_parallel_size 1 or the pool's tensor size ("+itoa(tp)+"), on an MLA model without Mamba/linear-attention layers, with NixlConnector",
				"%s pool: tensor %d, decode_context_parallel_size %d: vLLM refuses it from %s (%q); whether %s has it is not known", role, tp, dcp, vllm.KVTransferDCPFix, problem, c.rel)
		case aware == vllm.Maybe:
			c.add(diag.Info, CodePDPairing, path, "",
				"%s pool: decode_context_parallel_size %d: NIXL pairs a DCP-sharded pool from %s; whether vLLM %s has it is not known", role, dcp, vllm.KVTransferDCPFix, c.rel)
		}
	}
}

// written reports a field the document writes.
func (c *checker) written(path []string) bool {
	_, ok := spec.NodeAt(c.d.Root, path, false)
	return ok
}

// checkPDHybridKV: a model with sliding-window layers loses the hybrid KV
// cache manager under a KV connector before #41847: those layers then cache
// the whole context, as full attention does (SPEC131).
func checkPDHybridKV(c *checker) {
	if c.model == nil || !c.relOK || !hasSlidingLayers(c.model) {
		return
	}
	path := p("disaggregation", "connector")
	msg := "%s has sliding-window layers, and vLLM %s turns the hybrid KV cache manager off when --kv-transfer-config is set: those layers cache the whole context, as full attention does, and the KV cache holds fewer tokens (vLLM #41830)"
	hint := "expect less KV capacity than colocated, or use a release with " + vllm.HybridKVFix
	switch vllm.HybridKVWithConnector(c.rel.Version) {
	case vllm.Absent:
		c.warnf(CodePDHybridKV, path, hint, msg, c.model.ID, c.rel)
	case vllm.Maybe:
		c.add(diag.Info, CodePDHybridKV, path, hint, msg+" (probably: the release that keeps it on, "+vllm.HybridKVFix+", is inferred)", c.model.ID, c.rel)
	}
}

func hasSlidingLayers(m *catalog.Model) bool {
	for i := range m.LayerTypes {
		if m.IsSlidingLayer(i) {
			return true
		}
	}
	return false
}

// pdPath is where a pool setting that must agree is written: the decode
// pool's override, else the prefill pool's, else the top-level field.
func (c *checker) pdPath(section, key string) []string {
	for _, role := range []string{spec.RoleDecode, spec.RolePrefill} {
		path := p("disaggregation", role, section, key)
		if _, ok := spec.NodeAt(c.d.Root, path, false); ok {
			return path
		}
	}
	if section == "parallelism" {
		return p("disaggregation", spec.RoleDecode, "parallelism")
	}
	return p(section, key)
}

func atoi(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0
}

func itoa(n int) string { return strconv.Itoa(n) }
