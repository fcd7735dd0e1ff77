package logs

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/vllm"
)

// Prefill/decode disaggregation (issue 24): what a P/D engine's start-up
// says about its KV connector, and the failures of its NIXL side channel,
// UCX transport and KV hand-off (LOG2xx). Every pattern is written from a
// log posted publicly; the fixtures (testdata/real/*-pd-*) cite each one.

// kvConnectorRules read the connector an engine runs and NIXL's start-up.
func kvConnectorRules() []rule {
	return []rule{
		// V1 factory.py (0.11.x, vllm#29369): "Creating v1 connector with
		// name: NixlConnector and engine_id: 027a18cd-…".
		r(one("Creating v1 connector with name: "), `Creating v1 connector with name: (\S+) and engine_id: (\S+)`, func(c *ctx, m [][]byte) {
			c.str(fKVConnector, m[1])
			c.str(fKVEngineID, m[2])
		}),
		// NIXL's own logger (_api.py, vllm#29369): "NIXL INFO _api.py:361
		// Backend UCX was instantiated"; plain "Backend UCX was
		// instantiated" in older wheels (ai-dynamo/dynamo#1108).
		r(one(" was instantiated"), `(?:^|\s)Backend (\S+) was instantiated`, func(c *ctx, m [][]byte) {
			addListValue(c, fNixlBackends, string(m[1]))
		}),
		// nixl_connector.py (vllm#29369): "NixlConnector setting KV cache
		// layout to HND for better xfer performance."
		r(one("setting KV cache layout to "), `setting KV cache layout to (\w+)`, func(c *ctx, m [][]byte) {
			c.str(fKVLayout, m[1])
		}),
		// nixl_connector.py registering the KV cache with NIXL: "Registering
		// KV_Caches: use_mla: False, num_blocks: 111680, block_shape: …"
		// (0.9, vllm#19341), "Registering KV_Caches. use_mla: False,
		// kv_buffer_device: cuda, use_host_buffer: False" (0.11, vllm#29369).
		r(one("Registering KV_Caches"), `Registering KV_Caches[.:] use_mla: (True|False)(?:, num_blocks: (\d+))?`, func(c *ctx, m [][]byte) {
			if !bytes.Contains(c.l.src, []byte("nixl")) {
				return
			}
			c.str(fNixlMLA, []byte(strings.ToLower(string(m[1]))))
			c.num(fNixlBlocks, m[2])
		}),
		kvMetricsRule(),
		// Traceback frames of the connector, and the listener thread's
		// death (ai-dynamo/dynamo#2706: "Exception in thread
		// nixl_handshake_listener:").
		r([]string{"nixl_connector.py", "kv_connector/v1/nixl/", "nixl_handshake_listener", "// tp_ratio"}, "", func(c *ctx, _ [][]byte) {
			msg := c.l.msg
			switch {
			case bytes.Contains(msg, []byte("Exception in thread nixl_handshake_listener")):
				c.r.nixlListener = true
				c.p.nixlFrames = true
			case bytes.Contains(msg, []byte("// tp_ratio")) && bytes.Contains(msg, []byte("tp_rank")):
				c.p.tpRatioFrame = true
				c.p.nixlFrames = true
			case hasPrefix(bytes.TrimSpace(msg), `File "`):
				c.p.nixlFrames = true
			}
		}),
	}
}

// kvMetricsLine is NIXL's telemetry line (vllm#25388: "KV Transfer
// metrics: Num successful transfers=1, Avg xfer time (ms)=9.862, P90 xfer
// time (ms)=9.862, Avg post time (ms)=5.693, P90 post time (ms)=5.693, Avg
// MB per transfer=70.0, Throughput (MB/s)=7097.952, Avg number of
// descriptors=56.0").
var kvMetricsLine = regexp.MustCompile(`Num successful transfers=(\d+), Avg xfer time \(ms\)=([\d.]+), P90 xfer time \(ms\)=([\d.]+),.*?Avg MB per transfer=([\d.]+)`)

func kvMetricsRule() rule {
	return r(one("KV Transfer metrics: "), "", func(c *ctx, _ [][]byte) {
		m := kvMetricsLine.FindSubmatch(c.l.msg)
		if m == nil {
			return
		}
		n, _ := strconv.ParseInt(string(m[1]), 10, 64)
		avg, _ := strconv.ParseFloat(string(m[2]), 64)
		p90, _ := strconv.ParseFloat(string(m[3]), 64)
		mb, _ := strconv.ParseFloat(string(m[4]), 64)
		if n <= 0 || n > 1<<40 {
			return
		}
		k := c.p.kvMetrics
		if k == nil {
			k = &KVTransferMetrics{first: lineRef{c.p.file, c.l.no}}
			c.p.kvMetrics = k
		}
		k.Lines++
		k.Transfers += n
		k.msTotal += avg * float64(n)
		k.mbTotal += mb * float64(n)
		k.MaxP90XferMs = max(k.MaxP90XferMs, p90)
		k.AvgXferMs = round3(k.msTotal / float64(k.Transfers))
		k.AvgMBPerXfer = round3(k.mbTotal / float64(k.Transfers))
		if k.msTotal > 0 {
			k.ThroughputMBps = round3(k.mbTotal / (k.msTotal / 1000))
		}
	})
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// addListValue appends a name to a comma-separated figure, once.
func addListValue(c *ctx, k field, name string) {
	v := &c.p.facts[k]
	if !v.set {
		c.p.facts.setStr(k, name, c.l.no)
		return
	}
	for _, s := range strings.Split(v.str, ",") {
		if s == name {
			return
		}
	}
	if len(v.str)+len(name) < maxValueLen {
		v.str += "," + name
	}
}

// kvTransferKey reads a key of --kv-transfer-config as a server prints it:
// JSON ('{"kv_connector": "NixlConnector", …}', the Namespace of ≤0.10) or
// the dataclass repr (KVTransferConfig(kv_connector='NixlConnector', …),
// "non-default args" of 0.11+).
var kvTransferKey = map[string]*regexp.Regexp{
	"kv_connector": regexp.MustCompile(`kv_connector\\?['"]?\s*[:=]\s*\\?['"]([A-Za-z0-9_.]+)`),
	"kv_role":      regexp.MustCompile(`kv_role\\?['"]?\s*[:=]\s*\\?['"]([a-z_]+)`),
	"engine_id":    regexp.MustCompile(`engine_id\\?['"]?\s*[:=]\s*\\?['"]([A-Za-z0-9_.:-]+)`),
}

// applyKVTransfer records the connector and role of a kv_transfer_config
// argument or config entry.
func applyKVTransfer(c *ctx, v string) {
	if v == "" || v == "None" {
		return
	}
	for k, f := range map[string]field{"kv_connector": fKVConnector, "kv_role": fKVRole, "engine_id": fKVEngineID} {
		if m := kvTransferKey[k].FindStringSubmatch(v); m != nil {
			c.p.facts.setStr(f, m[1], c.l.no)
		}
	}
}

var (
	engineIDMismatch = regexp.MustCompile(`Expected (\S+?),\s*received (\S+?)\.?\s*$`)
	ucxTransports    = regexp.MustCompile(`transports? (.+?) (?:is|are) not available, please use one or more of: (.+)$`)
	ucxCreateAH      = regexp.MustCompile(`ibv_create_ah\(.*?sgid_index=(\d+).*?\) (?:for (.+?) )?on (\S+) failed: (.+)$`)
	nixlStatus       = regexp.MustCompile(`NIXL_ERR_[A-Z_]+`)
	tpRatioAssert    = regexp.MustCompile(`(Local|Remote) tensor parallel size (\d+) is not divisible by (?:remote|local) tensor parallel size (\d+)`)
)

func pdFailureRules() []rule {
	// nixl_connector.py (vllm#27083): "RuntimeError: Remote NIXL agent
	// engine ID mismatch. Expected …_dp0,received …_dp0."
	engineID := r(one("Remote NIXL agent engine ID mismatch"), "", func(c *ctx, _ [][]byte) {
		msg := "a NIXL handshake reached another engine than the one the request named (engine ID mismatch)"
		if m := engineIDMismatch.FindSubmatch(c.l.msg); m != nil {
			msg += fmt.Sprintf(": expected %s, received %s", clip(string(m[1]), 80), clip(string(m[2]), 80))
		}
		c.fail(CodeNixlEngineID, msg, "")
	})
	// "Handshake failed for request …" follows an engine-ID mismatch
	// (vllm#27083): the same failure. Alone it is a handshake that failed
	// otherwise, e.g. after ZMQ's timeout (vllm#26171: "zmq.error.Again:
	// Resource temporarily unavailable" then "Handshake failed for request
	// cmpl-…, marking blocks as invalid").
	//
	// "Handshake with <engine> failed" is the decoder's background
	// handshake failing before any request is named (nixl_connector.py's
	// done_callback, logger.exception("Handshake with %s failed", eid),
	// vllm#20068; volcano-sh/kthena#503 on ≈0.11).
	handshake := r([]string{"Handshake failed for request", "Handshake with "}, "", func(c *ctx, _ [][]byte) {
		if hasPrefix(c.l.msg, "Handshake with ") && !bytes.HasSuffix(bytes.TrimSpace(c.l.msg), []byte(" failed")) {
			return
		}
		if f := c.a.fails.byKey[string(CodeNixlEngineID)+"|"+strconv.Itoa(c.p.seq)]; f != nil {
			f.count++
			c.noted = true
			return
		}
		msg := "a decoder's NIXL handshake with a prefill engine failed: the request's KV was not pulled"
		if c.p.zmqAgain {
			msg = "a decoder's NIXL handshake got no answer from the prefill engine's side channel (ZMQ timed out): the request's KV was not pulled"
		}
		if bytes.Contains(c.l.msg, []byte("marking blocks as invalid")) {
			msg += " (its blocks are marked invalid: recomputed or failed per kv_load_failure_policy)"
		}
		c.fail(CodeNixlHandshake, msg, "")
	})
	again := r(one("zmq.error.Again"), "", func(c *ctx, _ [][]byte) {
		if c.p.nixlFrames || c.l.indent || bytes.Contains(c.l.src, []byte("nixl")) {
			c.p.zmqAgain = true
		}
	})
	// nixl/worker.py (aws-samples/aws-do-eks#84): "Releasing expired KV
	// blocks for request … which were retrieved by 0 remote worker(s)
	// before lease expired." (older: "… within %d seconds", vllm#21753);
	// "Potentially invalid KV blocks for unrecognized request … were
	// retrieved by a decode worker. They may have expired."
	expired := r(one("Releasing expired KV blocks for request"), "", func(c *ctx, _ [][]byte) {
		c.failSev(CodeKVLeaseExpired, "warning", "a prefill engine freed a request's KV blocks before a decoder read them (lease expired)", "")
	})
	invalid := r(one("Potentially invalid KV blocks for unrecognized request"), "", func(c *ctx, _ [][]byte) {
		if f := c.failSev(CodeKVLeaseExpired, "error", "a decoder read KV blocks the prefill engine had already freed: its answer may be wrong", ""); f != nil {
			f.severity = "error"
			f.message = "a decoder read KV blocks the prefill engine had already freed: its answer may be wrong"
		}
	})
	// nixl_connector.py (ai-dynamo/dynamo#3054): raise RuntimeError("NIXL
	// is not available"). The import's own WARNING alone is no failure:
	// the connector may never be created.
	missing := r(one("NIXL is not available"), "", func(c *ctx, _ [][]byte) {
		if c.l.level == 'W' || c.l.level == 'I' {
			return
		}
		if bytes.Contains(c.l.msg, []byte("RuntimeError")) {
			c.fail(CodeNixlMissing, "the NIXL connector is configured but NIXL cannot be imported (RuntimeError: NIXL is not available)", "")
		}
	})
	// UCX (LMCache/LMCache#605): "UCX  WARN  transports
	// 'cuda_ipc','cuda_copy' are not available, please use one or more of:
	// mm, posix, self, shm, sm, sysv, tcp".
	transports := r(one("not available, please use one or more of"), "", func(c *ctx, _ [][]byte) {
		m := ucxTransports.FindSubmatch(c.l.msg)
		if m == nil || !bytes.Contains(c.l.msg, []byte("UCX")) {
			return
		}
		c.fail(CodeUCXTransports, fmt.Sprintf("UCX cannot use %s here; it has %s", clip(string(m[1]), 120), clip(strings.TrimSpace(string(m[2])), 160)), "")
	})
	// UCX ib_device.c (ai-dynamo/dynamo#814, vllm-project/aibrix#1771):
	// "UCX  ERROR   ibv_create_ah(dlid=49152 … sgid_index=0
	// traffic_class=0) for UD mlx5 connect on mlx5_0 failed: No such device".
	createAH := r(one("ibv_create_ah("), "", func(c *ctx, _ [][]byte) {
		m := ucxCreateAH.FindSubmatch(c.l.msg)
		if m == nil {
			return
		}
		c.fail(CodeUCXGID, fmt.Sprintf("UCX cannot build an RDMA address handle on %s with GID index %s: %s", clip(string(m[3]), 40), m[1], clip(string(m[4]), 80)), "")
	})
	// nixl_connector.py (vllm#21576): "p_remote_rank = self.tp_rank //
	// tp_ratio" then "ZeroDivisionError: integer division or modulo by zero".
	tpRatio := r(one("ZeroDivisionError"), "", func(c *ctx, _ [][]byte) {
		if !c.p.tpRatioFrame || c.l.indent {
			return
		}
		extra := ""
		if v, ok := c.a.fileVersion(c.p.file); ok && vllm.NixlTPPairing(v, 2, 1).PrefillLarger {
			extra = fmt.Sprintf("This release (%s) predates vllm%s, which pairs a prefill TP larger than the decode TP.", v, vllm.NixlTPPairingFix)
		}
		c.fail(CodeNixlTPRatio, "NIXL cannot pair this decode worker with the prefill workers: the prefill TP is larger than the decode TP (tp_ratio is 0)", extra)
	})
	// TpKVTopology.tp_ratio's assertion (nixl_connector.py / kv_connector
	// utils.py from 0.11.1, read at the v0.11.1-v0.14.0 tags): "Local tensor
	// parallel size 4 is not divisible by remote tensor parallel size 8"
	// (the decode's TP first); from 0.14.0 a larger remote size asserts as
	// "Remote tensor parallel size … is not divisible by local …".
	// MooncakeConnector's _get_tp_ratio asserts the same words (v0.19.0,
	// v0.24.0 mooncake_connector.py), so the message names no connector.
	tpAssert := r(one("tensor parallel size"), "", func(c *ctx, _ [][]byte) {
		m := tpRatioAssert.FindSubmatch(c.l.msg)
		if m == nil || c.l.indent {
			return
		}
		a, _ := strconv.Atoi(string(m[2]))
		b, _ := strconv.Atoi(string(m[3]))
		dec, pre := a, b
		if string(m[1]) == "Remote" {
			dec, pre = b, a
		}
		if dec <= 0 || pre <= 0 {
			return
		}
		if pre > dec && pre%dec == 0 {
			c.fail(CodeNixlTPRatio, fmt.Sprintf("the KV connector cannot pair this decode worker (TP %d) with the prefill workers (TP %d): a prefill TP larger than the decode TP is paired by NIXL from vllm%s and by MooncakeConnector from %s", dec, pre, vllm.NixlTPPairingFix, vllm.MooncakeHeteroTPFrom()), "")
			return
		}
		c.fail(CodeNixlTPRatio, fmt.Sprintf("the KV connector cannot pair this decode worker (TP %d) with the prefill workers (TP %d): one TP size must divide the other", dec, pre), "")
	})
	// NIXL's status codes (ai-dynamo/dynamo#1108: "NIXL_ERR_BACKEND";
	// LMCache/LMCache#605: "nixl._bindings.nixlBackendError: NIXL_ERR_BACKEND").
	backend := r(one("NIXL_ERR_"), "", func(c *ctx, _ [][]byte) {
		if c.l.indent || c.l.level == 'I' || c.l.level == 'D' {
			return
		}
		st := nixlStatus.Find(c.l.msg)
		if st == nil {
			return
		}
		msg := fmt.Sprintf("a NIXL backend call failed with %s", st)
		if c.p.ucxError != "" {
			msg += "; UCX said before: " + c.p.ucxError
		}
		c.fail(CodeNixlBackend, msg, "")
	})
	// UCX's own errors (ai-dynamo/dynamo#741: "sock.c:334 UCX  ERROR
	// connect(fd=120, dest_addr=10.244.13.0:34313) failed: Connection
	// refused" before NIXL_ERR_BACKEND): kept for LOG211's message, not a
	// finding by themselves (UCX retries other transports).
	ucxErr := r(one("UCX  ERROR"), `UCX  ERROR\s+(.+)$`, func(c *ctx, m [][]byte) {
		c.p.ucxError = clip(strings.TrimSpace(string(m[1])), 200)
	})
	// The worker's failure report of newer releases (vllm#50765, a
	// prefill TP 2 / decode TP 4 pair: "NIXL transfer failure:
	// handshake_failed | Context: {'failure_type': 'handshake_failed', …").
	xfer := r(one("NIXL transfer failure: "), `NIXL transfer failure: (\w+)`, func(c *ctx, m [][]byte) {
		c.noted = true
		kind := string(m[1])
		// "handshake_setup_failed" is the background handshake's future
		// failing (nixl_connector.py done_callback, _log_failure; vllm#41863:
		// decoders after a prefill worker crashed).
		if kind == "handshake_failed" || kind == "handshake_setup_failed" {
			if c.a.fails.byKey[string(CodeNixlEngineID)+"|"+strconv.Itoa(c.p.seq)] == nil {
				c.fail(CodeNixlHandshake, "a decoder's NIXL handshake with a prefill engine failed (NIXL transfer failure: "+kind+"): the request's KV was not pulled", "")
			}
			return
		}
		c.fail(CodeNixlBackend, fmt.Sprintf("a NIXL transfer failed (%s)", clip(kind, 60)), "")
	})
	// config.py (vllm#41830): "Turning off hybrid kv cache manager because
	// `--kv-transfer-config` is set..."; a KV-too-small error after it is
	// the connector's doing (finish.go).
	hmaOff := r(one("Turning off hybrid kv cache manager because"), "", func(c *ctx, _ [][]byte) {
		if bytes.Contains(c.l.msg, []byte("kv-transfer-config")) || bytes.Contains(c.l.msg, []byte("kv_transfer_config")) {
			c.r.hmaOff = true
		}
	})
	// kv_cache_utils.py unify_hybrid_kv_cache_specs: with the hybrid KV
	// cache manager off (a KV connector without HMA support, or
	// --disable-hybrid-kv-cache-manager) a hybrid model's Mamba/linear
	// attention state cannot become a full-attention spec (vllm#42911:
	// LMCache on Qwen3.6-27B, 0.19.1).
	unify := r(one("Hybrid KV cache manager is disabled but failed to convert the KV cache specs"), "", func(c *ctx, _ [][]byte) {
		if c.l.indent {
			return
		}
		msg := "the hybrid KV cache manager is off and the hybrid model's layer caches (state and attention) cannot be unified into one type"
		if c.r.hmaOff {
			msg += ": vLLM turned it off because --kv-transfer-config is set"
		}
		c.fail(CodeHMAOffUnify, msg, "")
	})
	// Mooncake's transfer engine (glog form: "E1210 03:24:54.778028 2548307
	// ascend_direct_transport.cpp:820] Failed to connect to target:
	// 172.16.100.99:25389, status: 103900"), kept for LOG214's message.
	mcPeer := r(one("Failed to connect to target: "), `Failed to connect to target: (\S+?),? `, func(c *ctx, m [][]byte) {
		c.r.transferPeer = clip(string(m[1]), 80)
	})
	// vllm-ascend mooncake_connector.py (vllm-project/vllm-ascend#4866,
	// #5635): logger.error("Mooncake transfer failed for request %s", …),
	// then RuntimeError(f"Mooncake transfer failed, ret: {ret}") when
	// batch_transfer_sync_read returns < 0, logged again as "Failed to
	// transfer KV cache for request …: Mooncake transfer failed, ret: -1".
	mooncake := r(one("Mooncake transfer failed"), "", func(c *ctx, _ [][]byte) {
		c.noted = true
		if c.l.indent || c.l.level == 'I' || c.l.level == 'D' {
			return
		}
		msg := "a Mooncake KV transfer failed"
		if m := mooncakeReq.FindSubmatch(c.l.msg); m != nil {
			msg += " for request " + clip(strings.TrimRight(string(m[1]), ":"), 80)
		}
		if m := mooncakeRet.FindSubmatch(c.l.msg); m != nil {
			msg += " (transfer engine returned " + string(m[1]) + ")"
		}
		if c.r.transferPeer != "" {
			msg += "; the transfer engine could not connect to " + c.r.transferPeer
		}
		c.fail(CodeMooncakeTransfer, msg, "")
	})
	return []rule{engineID, handshake, again, xfer, hmaOff, unify, mcPeer, mooncake, expired, invalid, missing, transports, createAH, tpRatio, tpAssert, backend, ucxErr}
}

// mooncakeReq and mooncakeRet read the request and the transfer engine's
// return code from either of the connector's two lines.
var (
	mooncakeReq = regexp.MustCompile(`for request (\S+)`)
	mooncakeRet = regexp.MustCompile(`ret: (-?\d+)`)
)

// nixlBindFix says what a side-channel bind error means; the release's
// default base port comes from vllm/ when the log names the release.
func (a *analyzer) nixlBindFix(p *proc, b *zmqBind) string {
	switch b.errno {
	case "Address already in use":
		base := "the release's default base port"
		if v, ok := a.fileVersion(p.file); ok {
			base = fmt.Sprintf("%s's default base port %d", v, vllm.NixlSideChannelDefaultPort(v))
		}
		return fmt.Sprintf("Port %d is taken on this host: another engine's side channel (%s plus each engine's DP rank, unless VLLM_NIXL_SIDE_CHANNEL_PORT is set) or another service.", b.port, base)
	case "Cannot assign requested address", "No such device":
		return fmt.Sprintf("%s is not an address of the node this worker runs on: VLLM_NIXL_SIDE_CHANNEL_HOST must be set per node.", b.host)
	}
	return ""
}

// fileVersion is the vLLM release a file's processes logged.
func (a *analyzer) fileVersion(file int) (vllm.Version, bool) {
	for _, q := range a.order {
		if q.file != file || !q.facts[fVersion].set {
			continue
		}
		if v, ok := loggedRelease(q.facts[fVersion].str); ok {
			return v, true
		}
	}
	return vllm.Version{}, false
}

// nixlPortSpan is how far above its base port a host's side-channel
// listeners reach before vlaunch stops calling a port a side channel's:
// base + DP rank (× TP before 0.12) stays below it on 8-GPU hosts.
const nixlPortSpan = 64

// nixlPort reports whether a bind error's port is plausibly a NIXL side
// channel's: the file's engines run a NIXL connector and the port lies
// within nixlPortSpan above the release's default base port (both
// defaults when the log does not name the release).
func (a *analyzer) nixlPort(p *proc, port int) bool {
	nixl := false
	for _, q := range a.order {
		if q.file == p.file && vllm.IsNixl(q.facts[fKVConnector].str) {
			nixl = true
			break
		}
	}
	if !nixl {
		return false
	}
	bases := []int{vllm.NixlSideChannelDefaultPort(vllm.Version{}), vllm.NixlSideChannelDefaultPort(vllm.Version{Major: 1 << 20})}
	if v, ok := a.fileVersion(p.file); ok {
		bases = []int{vllm.NixlSideChannelDefaultPort(v)}
	}
	for _, b := range bases {
		if port >= b && port < b+nixlPortSpan {
			return true
		}
	}
	return false
}
