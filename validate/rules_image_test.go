package validate

import "testing"

// TestImageRefOK holds imageRefOK to the distribution reference grammar
// (rules_image.go): the forms docker pulls, and what it refuses with
// "invalid reference format".
func TestImageRefOK(t *testing.T) {
	for _, s := range []string{
		"vllm/vllm-openai:v0.11.0", "vllm/vllm-openai", "ubuntu", "ubuntu:22.04",
		"registry.example.com:5000/team/vllm:v0.11.0", "localhost/vllm:dev", "nvcr.io/nvidia/pytorch:24.05-py3",
		"vllm/vllm-openai@sha256:3f1a2b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708",
		"vllm/vllm-openai:v0.11.0@sha256:3f1a2b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708",
		"[fd00::1]:5000/vllm:v1", "10.0.0.5:5000/vllm_openai__x/a.b-c:tag_1", "rocm/vllm:rocm6.3.1_vllm_0.8.5_20250521",
	} {
		if !imageRefOK(s) {
			t.Errorf("imageRefOK(%q) = false, want true", s)
		}
	}
	for _, s := range []string{
		"user:password@registry.example.com/vllm:v0.11.0", "registry.example.com/vllm/VLLM-openai:v1", "vllm-openai:v1:latest",
		"vllm/vllm-openai:", "vllm//openai", "vllm/-openai", "vllm/vllm-openai@sha256:abc", "-vllm", "vllm/vllm-openai:.tag",
		"registry.example.com/" + longName(256),
	} {
		if imageRefOK(s) {
			t.Errorf("imageRefOK(%q) = true, want false", s)
		}
	}
}

func longName(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a'
	}
	return string(b)
}
