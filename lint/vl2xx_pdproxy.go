package lint

import (
	"path"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
	"mvdan.cc/sh/v3/syntax"
)

// demoProxy is vLLM's example proxy (examples/…/disagg_proxy_demo.py): it
// sends the prefill leg with max_tokens=1 but neither asks for nor forwards
// kv_transfer_params, so with NIXL the decoder recomputes the prompt
// ("the DecodeWorker had both the prefill and decode log", vLLM #26896,
// F4; the cause is read from the demo's code, the issue is open).
const demoProxy = "disagg_proxy_demo.py"

// paramsConnectors need the proxy to carry kv_transfer_params between the
// legs: NIXL (pull and push) and the V1 Mooncake connector.
func paramsConnector(k kvTransfer) bool {
	return isNixl(k) || k.Connector == "MooncakeConnector"
}

// checkPDProxy reports vLLM's demo proxy in front of engines whose
// connector needs kv_transfer_params (VL226).
func checkPDProxy(p *pass) {
	var nixl *server
	for _, s := range p.Servers {
		if paramsConnector(s.KV()) {
			nixl = s
			break
		}
	}
	if nixl == nil {
		return
	}
	var mooncake *server
	for _, s := range p.Servers {
		if s.KV().Connector == "MooncakeConnector" {
			mooncake = s
			break
		}
	}
	for _, sc := range p.Scripts {
		syntax.Walk(sc.File, func(n syntax.Node) bool {
			call, ok := n.(*syntax.CallExpr)
			if !ok {
				return true
			}
			if mooncake != nil && checkRouterConnector(p, sc, call, mooncake) {
				return false
			}
			for _, w := range call.Args {
				if path.Base(w.Lit()) == demoProxy || strings.HasSuffix(w.Lit(), "/"+demoProxy) {
					p.Report(sc.Name(), sc.Pos(w.Pos()), "use a proxy that forwards kv_transfer_params: vllm-router --vllm-pd-disaggregation, llm-d's routing sidecar, Dynamo, or tests/v1/kv_connector/nixl_integration/toy_proxy_server.py for a test",
						"%s does not forward kv_transfer_params: with %s (%s:%d) the decoder recomputes every prompt and P/D gains nothing (vLLM #26896)", demoProxy, nixl.KV().Connector, nixl.Inv.File, nixl.Inv.Pos.Line)
					return false
				}
			}
			return true
		})
	}
}

// intraNodeUCX are UCX transports that never leave the node (shared
// memory, CUDA/ROCm copies and IPC, self).
var intraNodeUCX = map[string]bool{
	"self": true, "sm": true, "shm": true, "posix": true, "sysv": true, "cma": true, "knem": true, "xpmem": true, "mm": true,
	"cuda_copy": true, "cuda_ipc": true, "cuda": true, "gdr_copy": true, "rocm_copy": true, "rocm_ipc": true, "rocm": true,
}

// checkNixlUCX reports UCX settings that break NIXL between nodes (VL227):
// UCX_TLS listing only transports that stay on the node ("no active
// messages transport", F10, ai-dynamo/nixl#1846; NixlConnector reads UCX,
// not NCCL, variables: docs/features/nixl_connector_usage.md), and, as a
// note, RoCE shown by NCCL_IB_GID_INDEX without UCX_IB_GID_INDEX (UCX then
// tried GID 0: "ibv_create_ah(... sgid_index=0 ...) failed: No such
// device", F8, ai-dynamo/dynamo#814, ai-dynamo/nixl#201).
func checkNixlUCX(p *pass) {
	ns := nixlServers(p)
	for _, s := range ns {
		if !spansNodes(p, s, ns) {
			continue
		}
		if e, ok := s.Inv.LookupEnv("UCX_TLS"); ok && e.Value.Known && onlyIntraNode(e.Value.Text) {
			p.Report(s.Inv.File, e.Value.Pos, "include a network transport (rc, ud, dc or tcp) or use UCX_TLS=all",
				"UCX_TLS=%s has no transport between nodes: NIXL cannot reach the engines on other nodes of this P/D deployment", e.Value.Text)
		}
		if g, ok := s.Inv.LookupEnv("NCCL_IB_GID_INDEX"); ok {
			if _, ucx := s.Inv.LookupEnv("UCX_IB_GID_INDEX"); !ucx && !s.Inv.EnvOpen {
				p.ReportAtSeverity(s.Inv, g.Pos, diag.Info, "set UCX_IB_GID_INDEX to the same RoCE v2 GID index",
					"NCCL_IB_GID_INDEX says RoCE, but NIXL's transfers go through UCX, which does not read it: without UCX_IB_GID_INDEX UCX may pick GID 0 and fail (\"ibv_create_ah ... sgid_index=0 ... No such device\", ai-dynamo/dynamo#814)")
			}
		}
	}
}

// onlyIntraNode reports a UCX_TLS list (not an exclusion list "^x") whose
// every transport stays on the node.
func onlyIntraNode(tls string) bool {
	t := strings.TrimSpace(tls)
	if t == "" || strings.HasPrefix(t, "^") {
		return false
	}
	for _, x := range strings.Split(t, ",") {
		if !intraNodeUCX[strings.TrimSpace(x)] {
			return false
		}
	}
	return true
}

// srcRouterKVConnector: vllm-router's --kv-connector says which connector's
// kv_transfer_params it writes, NIXL's unless told otherwise
// (vllm-project/router@03e9af5c src/main.rs: `#[arg(long, value_enum,
// default_value_t = KvConnector::Nixl)] kv_connector`, "nixl or mooncake").
// vLLM's MooncakeConnector needs the router's transfer_id: without it the
// prefiller logs "Missing transfer_id in kv_transfer_params from router!"
// and sends nothing (vllm/distributed/kv_transfer/kv_connector/v1/
// mooncake_connector.py, the do_remote_decode branch), and the decoder
// recomputes the prompt.

// checkRouterConnector reports a `vllm-router --vllm-pd-disaggregation`
// that writes NIXL's kv_transfer_params (no --kv-connector, or nixl) in
// front of MooncakeConnector engines (VL226). It reports whether call is
// a vllm-router command.
func checkRouterConnector(p *pass, sc *launch.Script, call *syntax.CallExpr, mc *server) bool {
	at, args, ok := routerCall(call)
	if !ok {
		return false
	}
	pd, conn := false, "nixl"
	for i, w := range args {
		lit := w.Lit()
		switch {
		case lit == "--vllm-pd-disaggregation":
			pd = true
		case lit == "--kv-connector" && i+1 < len(args):
			conn, at = args[i+1].Lit(), args[i+1]
		case strings.HasPrefix(lit, "--kv-connector="):
			conn, at = strings.TrimPrefix(lit, "--kv-connector="), w
		}
	}
	if pd && conn == "nixl" {
		p.Report(sc.Name(), sc.Pos(at.Pos()), "pass --kv-connector mooncake to vllm-router",
			"vllm-router writes NIXL's kv_transfer_params (--kv-connector defaults to nixl), but the engines use MooncakeConnector (%s:%d): the prefiller logs \"Missing transfer_id in kv_transfer_params from router!\" and sends no KV, and the decoder recomputes every prompt",
			mc.Inv.File, mc.Inv.Pos.Line)
	}
	return true
}
