package spec

import "testing"

// TestLLMDDefaults: router kind llm-d gets the pinned images and decode
// port, and no router node or port (nothing of llm-d's runs on one); the
// decode pool's view serves decode_port, the prefill pool's vllm.port.
func TestLLMDDefaults(t *testing.T) {
	d := &Deployment{
		Hardware: Hardware{Nodes: []Node{{Name: "a", GPUs: 8}, {Name: "b", GPUs: 8}}},
		VLLM:     VLLM{Version: "0.12.0", Port: 8000},
		Disaggregation: &Disaggregation{Connector: "nixl", Router: Router{Kind: RouterKindLLMD},
			Prefill: Pool{Nodes: []string{"a"}}, Decode: Pool{Nodes: []string{"b"}}},
	}
	ApplyDefaults(d)
	r := d.Disaggregation.Router
	if r != (Router{Kind: RouterKindLLMD, Image: DefaultLLMDEPPImage, SidecarImage: DefaultLLMDSidecarImage, DecodePort: DefaultLLMDDecodePort}) {
		t.Errorf("router %+v", r)
	}
	if p, q := d.RoleView(RoleDecode).VLLM.Port, d.RoleView(RolePrefill).VLLM.Port; p != DefaultLLMDDecodePort || q != 8000 || d.VLLM.Port != 8000 {
		t.Errorf("decode view port %d, prefill %d, spec %d", p, q, d.VLLM.Port)
	}
	d.Disaggregation.Router = Router{Kind: RouterKindVLLM, Node: "a", Port: 8000}
	if p := d.RoleView(RoleDecode).VLLM.Port; p != 8000 {
		t.Errorf("with vllm-router the decode engines keep vllm.port, got %d", p)
	}
}
