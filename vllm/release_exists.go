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
	// Searched 2026-12-06 for a release after 0.31.0 (exact search of public
	// repositories, issue threads, pages and docs: "v0.31.1", "vllm==0.31.1",
	// "vllm-openai:v0.31.1", "vllm-openai:v0.31.2", "0.31.1rc2", "0.31.2rc",
	// "v0.32.0", "vllm==0.32", "vllm>=0.32", "vllm-openai:v0.32", "0.32.0rc",
	// "0.32.0.dev", "vllm/releases/tag/v0.31.1", "vllm/releases/tag/v0.32",
	// "min_version: 0.31.1" / "0.32"; release-note searches): none found. What
	// was seen: the v0.31.1rc0 tag (2026-10-06; a vLLM notes file written on
	// main of 2026-10-07 calls it the newest tag and v0.31.0, 2026-10-02, the
	// newest release) and nightlies up to 0.31.1rc1.dev261 (resolved
	// 2026-10-10), the newest vLLM build any indexed file names; 0.32 only as
	// a target ("Model Runner V1 ... removal targeted for vLLM v0.32"), as an
	// example base image in a build script's usage line, as a test fixture
	// that rewrites a recipe's image to v0.31.1, and as a requirement an
	// offline mirror defers "since that upstream release is not published"
	// (xinference pypiserver README: EmbeddingGemma 2's vllm>=0.32.0). So 0.31.0
	// stays the newest row; the searchable material ends in mid-October 2026,
	// which is why a later release cannot be ruled out either.
	relExists031_0 = "exists: vllm/vllm-openai:v0.31.0 pinned by public deployments with its digest (\"vLLM 0.31.0 (vllm/vllm-openai:v0.31.0@sha256:c1c9f6fd…, CUDA 13.0)\"; " +
		"a -cu129 variant; recipes requiring min_version 0.31.0). Newest release seen: a 0.31.1rc0 tag had no image (\"Docker Hub returns 404 for vllm/vllm-openai:v0.31.1rc0\")"
)
