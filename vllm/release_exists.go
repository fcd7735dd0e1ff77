package vllm

// Evidence that the releases the table lists without reading their CLI
// exist: the official image tag vllm/vllm-openai:vX.Y.Z pinned by public
// deployment files (found by exact search of public repositories, Dec 2026),
// some with the image digest. An image is built from the release tag, so
// its tag shows the release was published; it says nothing about the CLI,
// which comes from the spans around the release.
const (
	relExists015_1 = "exists: vllm/vllm-openai:v0.15.1 pinned by public deployments (a Dockerfile `FROM vllm/vllm-openai:v0.15.1`; " +
		"a benchmark README: \"vLLM: v0.15.1 (Docker image vllm/vllm-openai:v0.15.1)\"; kserve issue #5337, Apr 2026: \"vLLM support is currently locked at 0.15.1\")"
	relExists019_1 = "exists: vllm/vllm-openai:v0.19.1 pinned by public deployments (\"vllm/vllm-openai:v0.19.1-cu130-ubuntu2404 (Docker Hub, stable release from 2026-04-20)\"; " +
		"package versions \"verified 2026-04-26 inside vllm/vllm-openai:v0.19.1\")"
	relExists020_1 = "exists: vllm/vllm-openai:v0.20.1 pinned by public deployments (k8s manifests, an aarch64-ubuntu2404 variant); " +
		"vllm-project/router PR #172 tested \"on vLLM 0.20.1\""
	relExists020_2 = "exists: vllm/vllm-openai:v0.20.2 (and -cu129-ubuntu2404) pinned by public deployments; docs.vllm.ai/en/v0.20.2 versioned API pages"
	relExists025_1 = "exists: vllm/vllm-openai:v0.25.1 pinned by public deployments with its digest (sha256:e4f88a83…, amd64 sha256:f0b9a0dc…)"
	relExists027_1 = "exists: vllm/vllm-openai:v0.27.1 pinned by public deployments with its digest (sha256:2c211a12…, vllm/vllm-openai@sha256:0a51ea5b…; " +
		"multi-arch, an -aarch64-cu129-ubuntu2404 variant \"verified published as linux/arm64 on Docker Hub\")"
	// A first search on 2026-12-06 (exact search of public repositories and
	// issue threads: "vllm==0.32", "vllm-openai:v0.32", "v0.32.0",
	// "0.31.1rc2", "docs.vllm.ai/en/v0.32", ...) found no release after
	// 0.31.0 in repository files, which end in mid-October 2026 (nightlies up
	// to 0.31.1rc1.dev261, resolved 2026-10-10). The documentation corpus
	// (release pages of projects that ship vLLM, PyPI pages) reaches later
	// and shows 0.32.0, 0.33.0 and 0.34.0 published (relExists032_0 ...
	// relExists034_0). No 0.31.x, 0.32.x or 0.33.x patch release was seen
	// there either ("v0.31.1", "0.32.1", "0.33.1", "patch release on top of
	// v0.32.0"): the v0.31.1rc0 tag (2026-10-06) had no image and no 0.31.1
	// final was found, so none is listed.
	// A second search on 2026-12-06 (issue #23, rel35) looked for vLLM's own
	// release notes, tags and files of 0.32.0 onwards ("vllm v0.34.0 release
	// notes", "vllm==0.35.0", "vllm/vllm-openai:v0.35.0", "Bump version
	// v0.34", "v0.33.1", "0.34.1", "vLLM 0.35", dependabot bumps that quote
	// vLLM's release notes, versioned docs, mirrors of the release assets,
	// vllm-project/vllm files at the tags): none was found, and no release
	// after 0.34.0 either. The one first-party datum it added is the vllm
	// package's own entry in the Python package index (uploaded by the vLLM
	// project): 0.33.0 was its newest version in a listing of the index made
	// in November 2026, uploaded that month, and 0.34.0 was not yet there.
	// A third search on 2026-12-07 (rel36: renovate/dependabot bumps, llm-d
	// upstream-update issues, exact pins "vllm==0.34", "vllm-openai:v0.34",
	// vLLM's own issue tracker's environment dumps, vllm-ascend/-torchtpu/
	// -omni/-windows releases, Docker Hub, conda-forge, osv.dev, Chinese and
	// Japanese pages) found no release after 0.34.0 and no file of 0.32.0+;
	// it added the vLLM-Omni install page's statement for 0.32.0 (below).
	// A fourth check on 2026-12-07 (models42: find_string "vllm==0.35",
	// "vllm==0.34.1", "vllm-openai:v0.34", "vllm v0.34.1", "0.34.1rc",
	// "vLLM 0.35" — the last only memory fractions — and the issues and docs
	// corpora for 0.34.1/0.35.0 release notes and bumps; the mirrored fork
	// github.com/kzwrime/vllm carries upstream tags only to v0.24.0) found
	// nothing after 0.34.0: the table's newest release stands.
	relExists031_0 = "exists: vllm/vllm-openai:v0.31.0 pinned by public deployments with its digest (\"vLLM 0.31.0 (vllm/vllm-openai:v0.31.0@sha256:c1c9f6fd…, CUDA 13.0)\"; " +
		"a -cu129 variant; recipes requiring min_version 0.31.0). After it: a 0.31.1rc0 tag had no image and no 0.31.1 final was seen (\"Docker Hub returns 404 for vllm/vllm-openai:v0.31.1rc0\")"
	// Releases after 0.31.0. Only that each was published is shown: the
	// dates below are the dates of the third-party releases that ship it
	// (an upper bound on the vLLM release date, not the date itself; for
	// 0.33.0 the package index's upload month adds the lower bound), and no
	// file of these releases was read, so their CLI and defaults come from
	// the spans around them (Release.Verified is false).
	relExists032_0 = "exists: out by 2026-10-20 (release date not read): gpustack/runner v0.1.31.post4, released 2026-10-20, " +
		"\"vLLM 0.32.0 ... published on CUDA 13.0/12.9 and ROCm 7.2 images\" (github.com/gpustack/runner/releases/tag/v0.1.31.post4); " +
		"SystemPanic/vllm-windows v0.32.0 (2026-10-22) \"Windows build of release v0.32.0\"; syv-ai/qwen38-27b-rtx3090 docs/vllm-0.32.md pins vllm==0.32.0 " +
		"(transformers >=5.16.1,<5.20.0, torch 2.13.0 as 0.31.0; FlashInfer kernels via `vllm download-kernels`, PR #58765); " +
		"vllm-project's own vLLM-Omni install page (docs.vllm.ai/projects/vllm-omni/en/stable/getting_started/installation/): \"The vLLM 0.32.0 release, " +
		"PyPI wheels and upstream CUDA/ROCm/XPU images are published\", wheel commit 5df63a7203cdb9328d824a27b682e77c7b9928be (no file at it read); " +
		"third-party images openeuler/vllm:0.32.0-oe2403sp4 and Chainguard vllm-cuda-13.2 0.32.0-r2 (osv.dev CGA-7x88-v3mr-x5gm, 2026-10-27)"
	relExists033_0 = "exists: published 2026-11-01..05 (day not read): the vllm package's Python package index entry lists 0.33.0, uploaded in November 2026; " +
		"gpustack/runner v0.1.32.post4, released 2026-11-05, " +
		"\"Upgrade vLLM to 0.33.0 for CUDA 13.0 and ROCm 7.2\"; vllm-project/vllm-torchtpu v0.33.0 (2026-11-17) \"vLLM: v0.33.0 (was v0.32.0 at v0.32.0)\" " +
		"(its notes: ray always uses RayDistributedExecutorV2, KV cache planning moved to vllm.v1.core.kv_cache_planning); " +
		"syv-ai/qwen38-27b-rtx3090 docs/vllm-0.33.md pins vllm==0.33.0 (torch 2.14.0, flashinfer-python 0.7.2.post1, Triton 3.8.0)"
	relExists034_0 = "exists: date unknown (after 0.33.0): pypi.org/project/gpustack-runner/0.1.33.post1 lists vLLM 0.34.0 as the newest supported engine " +
		"for NVIDIA CUDA 13.0 and AMD ROCm 10.0 (its catalog is of published images; gpustack/runner v0.1.33.post1: \"Bump fastokens to 0.3.6 for vLLM 0.34.0. #440\"); " +
		"a single third-party source, first seen there, no vLLM file of the release read"
)
