package vllm

// releaseRow is one line of the release table.
type releaseRow struct {
	name, note, source string
}

// releaseRows lists the releases the table covers, oldest first. The table
// starts at 0.5.3 because real launch configurations still name 0.5.x
// releases; 0.5.0-0.5.2 and older resolve to 0.5.3 with a warning. x.y.0
// releases from 0.9 to 0.30 follow vllm-facts.md ("release tags seen run at
// least to v0.30.0"); 0.31.0 and the patch releases after 0.15 are listed
// where published images show the release exists (the note cites them), so
// they resolve exactly instead of falling back to x.y.0 with a warning.
// A row with a source is Verified: part of that release's own CLI or docs
// was read; a row whose note only shows that the release exists is not, and
// its entries come from the spans around it like any unread release.
// 0.32.0, 0.33.0 and 0.34.0 are such rows: third-party releases that ship
// them show they were published (release_exists.go cites them, with what is
// known of their dates); none of their files was read. No 0.31.x, 0.32.x or
// 0.33.x patch release is listed: none was seen (only a 0.31.1rc0 tag
// without an image).
var releaseRows = []releaseRow{
	{"0.5.3", "", ""},
	{"0.5.4", "first release with the multiprocessing OpenAI frontend (PR #6883): it talks to the engine over ZMQ on a fixed TCP port, so two servers on one host collide (see RPCPortFacts)",
		"issue #7653 (maintainer: \"We introduced multiprocessing into the frontend in v0.5.4\"); issue #7196"},
	{"0.5.5", "", "docs.vllm.ai/en/v0.5.5/serving/distributed_serving"},
	{"0.6.0", "", ""},
	{"0.6.1", "", srcNS061},
	{"0.6.2", "", ""},
	{"0.6.3", "0.6.3.post1 is a hotfix with the same CLI", srcUsage063},
	{"0.6.4", "", "docs.vllm.ai/en/v0.6.4/_sources/models/spec_decode.rst"},
	{"0.6.5", "", ""},
	{"0.6.6", "0.6.6.post1 is a hotfix with the same CLI", srcUsage066},
	{"0.7.0", "", ""},
	{"0.7.1", "", "docs.vllm.ai/en/v0.7.1/_sources/features/spec_decode.md"},
	{"0.7.2", "", ""},
	{"0.7.3", "", ""},
	{"0.8.0", "V1 engine default (verl-pipeline issue #5: \"Starting from vLLM version 0.8.0, the V1 engine is used by default\"; third-party)", srcDP080},
	{"0.8.1", "", srcUsage081},
	{"0.8.2", "", srcSpec082},
	{"0.8.3", "", srcDP083},
	{"0.8.4", "", srcUsage084},
	{"0.8.5", "", srcUsage085},
	{"0.9.0", "", srcServe090 + "; " + srcEnv0901},
	{"0.9.1", "", srcServe091},
	{"0.9.2", "", srcA2A092},
	{"0.10.0", "", srcServe091},
	{"0.10.1", "0.10.1.1 is a hotfix of 0.10.1 with the same CLI", srcEnv01011},
	{"0.10.2", "", "docs.vllm.ai/en/v0.10.2/api/vllm/config/cache"},
	{"0.11.0", "the V0 engine is gone (huggingface/optimum-neuron PR #1027)", srcEnv0110 + "; " + srcA2A0110},
	{"0.11.1", "", srcEnv0110},
	{"0.11.2", "", srcPar0112},
	{"0.12.0", "", srcEnv0110 + "; " + srcSpec012},
	{"0.13.0", "", "issue #31480 (vLLM 0.13.0 log: --enable-expert-parallel, --tensor-parallel-size accepted)"},
	{"0.14.0", "", srcPar014},
	{"0.14.1", "", "docs.vllm.ai/en/v0.14.1 (versioned pages exist; CLI not read)"},
	{"0.15.0", "", "docs.vllm.ai/en/v0.15.0/examples/offline_inference/data_parallel"},
	{"0.15.1", relExists015_1, ""},
	{"0.16.0", "", srcServe016},
	{"0.17.0", "", ""},
	{"0.17.1", "", ""},
	{"0.18.0", "", ""},
	{"0.18.1", "", srcServe016},
	{"0.19.0", "", ""},
	{"0.19.1", relExists019_1, ""},
	{"0.20.0", "", ""},
	{"0.20.1", relExists020_1, ""},
	{"0.20.2", relExists020_2, "docs.vllm.ai/en/v0.20.2/api/vllm/model_executor/layers/fused_moe/config (FusedMoEParallelConfig)"},
	{"0.21.0", "", ""},
	{"0.22.0", "", ""},
	{"0.22.1", "argparse dump of the vllm/vllm-openai:v0.22.1 image (vllm-facts.md)", srcServe016},
	{"0.23.0", "", ""},
	{"0.24.0", "", ""},
	{"0.25.0", "", ""},
	{"0.25.1", relExists025_1, ""},
	{"0.26.0", "", "docs.vllm.ai/en/v0.26.0/api/vllm/distributed/device_communicators/base_device_communicator"},
	{"0.27.0", "", "docs.vllm.ai/en/v0.27.0/api/vllm/distributed/device_communicators/all2all"},
	{"0.27.1", relExists027_1, ""},
	{"0.28.0", "", ""},
	{"0.29.0", "", ""},
	{"0.30.0", "", ""},
	{"0.31.0", relExists031_0, ""},
	{"0.32.0", relExists032_0, ""},
	{"0.33.0", relExists033_0, ""},
	{"0.34.0", relExists034_0, ""},
}

// knownReleases is releaseRows parsed once.
var knownReleases = func() []Release {
	rs := make([]Release, len(releaseRows))
	for i, row := range releaseRows {
		v := mustVersion(row.name)
		rs[i] = Release{Version: v, Note: row.note, Verified: row.source != "", Source: row.source, Requested: v}
	}
	return rs
}()
