package preflight

import "testing"

// TestConnectorPackages: the package check follows the pool's connector
// (vllm.PDBundle.Module): NixlPushConnector and NixlPullConnector import
// nixl as NixlConnector does (#35264's connectors subclass its base),
// MooncakeConnector imports mooncake.engine
// (vllm-project/vllm@00f4240ee645 mooncake_connector.py: "from mooncake.engine
// import TransferEngine"), and opens no NIXL side channel; the h20-roce host
// has neither package.
func TestConnectorPackages(t *testing.T) {
	cases := []checkCase{
		{name: "push: nixl missing", host: "h20-roce", spec: "h20-roce", opts: pdPool("NixlPushConnector", 5600), id: "sw.nixl", want: Fail, mentions: []string{"nixl", "pip install nixl"}},
		{name: "pull: nixl missing", host: "h20-roce", spec: "h20-roce", opts: pdPool("NixlPullConnector", 5600), id: "sw.nixl", want: Fail, mentions: []string{"nixl"}},
		{name: "mooncake missing", host: "h20-roce", spec: "h20-roce", opts: pdPool("MooncakeConnector", 5600), id: "sw.nixl", want: Fail, mentions: []string{"mooncake.engine", "pip install mooncake-transfer-engine"}},
		{name: "mooncake: no NIXL side channel", host: "h20-roce", spec: "h20-roce", opts: pdPool("MooncakeConnector", 22, 23), id: "ports.nixl_side_channel", want: Skip, mentions: []string{"MooncakeConnector"}},
		{name: "push: side channel checked", host: "h20-roce", spec: "h20-roce", opts: pdPool("NixlPushConnector", 22, 23), id: "ports.nixl_side_channel", want: Fail, mentions: []string{"22 in use"}},
		{name: "p2pnccl: not checked", host: "h20-roce", spec: "h20-roce", opts: pdPool("P2pNcclConnector", 5600), id: "sw.nixl", want: Skip, mentions: []string{"P2pNcclConnector"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := runFixtureOpts(t, c.host, c.spec, "node0", c.edit, c.opts, c.id)
			wantResult(t, resultOf(t, rep, c.id), c.want, c.mentions...)
		})
	}
}
